import {
  TARGET_OPEN_STATUSES,
  type TargetDeliveryStatus,
  type TargetNotifyStatus,
} from "@hookflow/domain";
import type { Database } from "../../client.js";
import { and, eq, inArray, sql } from "../../drizzle.js";
import { additionalTargets, targetDeliveries } from "../../schema/index.js";

export type TargetDeliveryRow = typeof targetDeliveries.$inferSelect;

/** A target delivery a fan-out creates: pending (to send), or failed at once (no body to send). */
export interface NewTargetDelivery {
  eventId: string;
  targetId: string;
  webhookId: string;
  run: number;
  priority: number;
  body: string;
  /** Set when the target's payload could not be rendered: the delivery starts failed. */
  failure?: { error: string; notify: boolean };
}

/**
 * Creates the target deliveries of an event's delivery run, once: a row of the same run is left
 * as it is (a redelivered job fans out again and finds it), a row of an earlier run (a replay)
 * starts over with a fresh budget. Returns the rows this call created or restarted.
 */
export async function insertTargetDeliveries(
  db: Database,
  rows: readonly NewTargetDelivery[],
  now: Date,
): Promise<
  Array<{ targetId: string; status: TargetDeliveryStatus; notifyStatus: TargetNotifyStatus | null }>
> {
  if (rows.length === 0) return [];
  const values = rows.map((row) => ({
    eventId: row.eventId,
    targetId: row.targetId,
    webhookId: row.webhookId,
    run: row.run,
    priority: row.priority,
    body: row.body,
    status: row.failure ? ("failed" as const) : ("pending" as const),
    lastError: row.failure?.error ?? null,
    failedAt: row.failure ? now : null,
    notifyStatus: row.failure?.notify ? ("pending" as const) : null,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  return db
    .insert(targetDeliveries)
    .values(values)
    .onConflictDoUpdate({
      target: [targetDeliveries.eventId, targetDeliveries.targetId],
      set: {
        run: excluded("run"),
        priority: excluded("priority"),
        body: excluded("body"),
        status: excluded("status"),
        attemptCount: 0,
        lastStatusCode: null,
        lastError: excluded("last_error"),
        failedAt: excluded("failed_at"),
        notifyStatus: excluded("notify_status"),
        notifyAttemptCount: 0,
        nextAttemptAt: excluded("next_attempt_at"),
        updatedAt: excluded("updated_at"),
      },
      setWhere: sql`${targetDeliveries.run} <> excluded.run`,
    })
    .returning({
      targetId: targetDeliveries.targetId,
      status: targetDeliveries.status,
      notifyStatus: targetDeliveries.notifyStatus,
    });
}

/** A target delivery with what its job needs of the target (undefined target: deleted since). */
export interface LoadedTargetDelivery {
  delivery: TargetDeliveryRow;
  target:
    | Pick<
        typeof additionalTargets.$inferSelect,
        "id" | "name" | "url" | "maxRetries" | "notifyPrimaryOnFailure" | "isActive"
      >
    | undefined;
}

export async function findTargetDelivery(
  db: Database,
  eventId: string,
  targetId: string,
): Promise<LoadedTargetDelivery | undefined> {
  const [row] = await db
    .select({
      delivery: targetDeliveries,
      target: {
        id: additionalTargets.id,
        name: additionalTargets.name,
        url: additionalTargets.url,
        maxRetries: additionalTargets.maxRetries,
        notifyPrimaryOnFailure: additionalTargets.notifyPrimaryOnFailure,
        isActive: additionalTargets.isActive,
      },
    })
    .from(targetDeliveries)
    .leftJoin(additionalTargets, eq(additionalTargets.id, targetDeliveries.targetId))
    .where(and(eq(targetDeliveries.eventId, eventId), eq(targetDeliveries.targetId, targetId)));
  if (!row) return undefined;
  return { delivery: row.delivery, target: row.target ?? undefined };
}

/** Ends a delivery whose target or event went away (no request made). */
export async function abandonTargetDelivery(
  db: Database,
  eventId: string,
  targetId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await db
    .update(targetDeliveries)
    .set({
      status: "failed",
      lastError: reason,
      nextAttemptAt: null,
      failedAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(targetDeliveries.eventId, eventId),
        eq(targetDeliveries.targetId, targetId),
        inArray(targetDeliveries.status, [...TARGET_OPEN_STATUSES]),
      ),
    );
}

/** The target deliveries of an event, for the events API. */
export async function listTargetDeliveriesOfEvent(
  db: Database,
  eventId: string,
): Promise<TargetDeliveryRow[]> {
  return db
    .select()
    .from(targetDeliveries)
    .where(eq(targetDeliveries.eventId, eventId))
    .orderBy(targetDeliveries.createdAt, targetDeliveries.targetId);
}
