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
): Promise<Array<{ targetId: string; status: string; notifyStatus: string | null }>> {
  if (rows.length === 0) return [];
  const values = rows.map((row) => ({
    eventId: row.eventId,
    targetId: row.targetId,
    webhookId: row.webhookId,
    run: row.run,
    priority: row.priority,
    body: row.body,
    status: row.failure ? "failed" : "pending",
    lastError: row.failure?.error ?? null,
    failedAt: row.failure ? now : null,
    notifyStatus: row.failure?.notify ? "pending" : null,
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

/** One attempt at an additional target and the delivery's new state. */
export interface TargetAttemptRecord {
  eventId: string;
  targetId: string;
  webhookId: string;
  /** The attempt count the job read: the update applies only if no one recorded since. */
  expectedAttemptCount: number;
  attempt: {
    id: string;
    targetUrl: string;
    statusCode: number;
    responseBody: string;
    latencyMs: number;
    success: boolean;
    error: string | null;
    attemptedAt: Date;
  };
  status: "retrying" | "delivered" | "failed";
  nextAttemptAt: Date | null;
  /** With a final failure of a target that notifies the primary. */
  notify: boolean;
  now: Date;
}

/**
 * Records a target attempt, the delivery's new state and (on a final outcome) the target's health,
 * in one transaction. The state update is guarded on the attempt count the job read, so a job
 * redelivered after a crash cannot record the same attempt twice; false when the guard failed
 * (nothing is written then).
 */
export async function recordTargetAttempt(
  db: Database,
  input: TargetAttemptRecord,
): Promise<boolean> {
  const { attempt } = input;
  const final = input.status !== "retrying";
  const success = input.status === "delivered";
  const nextAt = input.notify ? input.now : input.nextAttemptAt;
  // One statement (one round trip): the guarded update, then the attempt and, on a final outcome,
  // the target's health, only when the update matched. Health rows are touched only when they
  // change (a success of a healthy target writes nothing).
  const rows = (await db.execute(sql`
    with upd as (
      update target_deliveries set
        status = ${input.status},
        attempt_count = ${input.expectedAttemptCount + 1},
        last_status_code = ${attempt.statusCode},
        last_error = ${attempt.error},
        next_attempt_at = ${nextAt ? nextAt.toISOString() : null}::timestamptz,
        failed_at = case when ${input.status} = 'failed'
          then ${input.now.toISOString()}::timestamptz else failed_at end,
        notify_status = case when ${input.notify} then 'pending' else notify_status end,
        updated_at = ${input.now.toISOString()}::timestamptz
      where event_id = ${input.eventId} and target_id = ${input.targetId}
        and status in ('pending', 'retrying')
        and attempt_count = ${input.expectedAttemptCount}
      returning event_id
    ), ins as (
      insert into delivery_attempts
        (id, event_id, webhook_id, target_url, is_additional_target, is_fallback, target_id,
         attempt, status_code, response_body, latency_ms, success, error, attempted_at)
      select ${attempt.id}, ${input.eventId}, ${input.webhookId}, ${attempt.targetUrl}, true,
        false, ${input.targetId}, ${input.expectedAttemptCount + 1}, ${attempt.statusCode},
        ${attempt.responseBody}, ${attempt.latencyMs}, ${attempt.success}, ${attempt.error},
        ${attempt.attemptedAt.toISOString()}::timestamptz
      from upd
    ), health as (
      update additional_targets t set
        consecutive_failures = case when ${success} then 0 else t.consecutive_failures + 1 end,
        health_status = case
          when ${success} then 'healthy'
          when t.consecutive_failures + 1 >= ${TARGET_DOWN_AFTER} then 'down'
          when t.consecutive_failures + 1 >= ${TARGET_DEGRADED_AFTER} then 'degraded'
          else 'healthy' end
      where t.id = ${input.targetId} and ${final} and exists (select 1 from upd)
        and (not ${success} or t.consecutive_failures > 0 or t.health_status <> 'healthy')
    )
    select count(*)::int as updated from upd`)) as unknown as Array<{ updated: number }>;
  return (rows[0]?.updated ?? 0) > 0;
}

/** Consecutive final failures before a target shows `degraded` / `down` (webhook defaults). */
const TARGET_DEGRADED_AFTER = 2;
const TARGET_DOWN_AFTER = 4;

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
        inArray(targetDeliveries.status, ["pending", "retrying"]),
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
