import { TARGET_OPEN_STATUSES } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { and, eq, inArray, lt, or } from "../../drizzle.js";
import { targetDeliveries } from "../../schema/index.js";
import { withPlainIndexScans } from "../plain-index-scans.js";
import type { TargetDeliveryRow } from "./target-deliveries.js";

/**
 * Target deliveries (or their notifications) due before `dueBefore`, oldest first, through the
 * partial index `target_deliveries_open_idx` walked with a plain index scan (see
 * `withPlainIndexScans`).
 */
export async function findOverdueTargetDeliveries(
  db: Database,
  options: { dueBefore: Date; limit: number },
): Promise<
  Array<Pick<TargetDeliveryRow, "eventId" | "targetId" | "webhookId" | "priority" | "status">>
> {
  return withPlainIndexScans(db, (tx) =>
    tx
      .select({
        eventId: targetDeliveries.eventId,
        targetId: targetDeliveries.targetId,
        webhookId: targetDeliveries.webhookId,
        priority: targetDeliveries.priority,
        status: targetDeliveries.status,
      })
      .from(targetDeliveries)
      .where(
        and(
          or(
            inArray(targetDeliveries.status, [...TARGET_OPEN_STATUSES]),
            eq(targetDeliveries.notifyStatus, "pending"),
          ),
          lt(targetDeliveries.nextAttemptAt, options.dueBefore),
        ),
      )
      .orderBy(targetDeliveries.nextAttemptAt)
      .limit(options.limit),
  );
}
