import type { Database } from "../../client.js";
import { and, eq } from "../../drizzle.js";
import { targetDeliveries } from "../../schema/index.js";

/**
 * Settles the `target.failed` notification of a delivery after one try: `sent`, `failed` (its
 * budget spent) or still `pending` with the next try's time. Guarded on the try count the job
 * read; false when someone recorded meanwhile.
 */
export async function recordTargetNotification(
  db: Database,
  input: {
    eventId: string;
    targetId: string;
    expectedTries: number;
    notifyStatus: "pending" | "sent" | "failed";
    nextAttemptAt: Date | null;
    now: Date;
  },
): Promise<boolean> {
  const rows = await db
    .update(targetDeliveries)
    .set({
      notifyStatus: input.notifyStatus,
      notifyAttemptCount: input.expectedTries + 1,
      nextAttemptAt: input.nextAttemptAt,
      updatedAt: input.now,
    })
    .where(
      and(
        eq(targetDeliveries.eventId, input.eventId),
        eq(targetDeliveries.targetId, input.targetId),
        eq(targetDeliveries.notifyStatus, "pending"),
        eq(targetDeliveries.notifyAttemptCount, input.expectedTries),
      ),
    )
    .returning({ eventId: targetDeliveries.eventId });
  return rows.length > 0;
}
