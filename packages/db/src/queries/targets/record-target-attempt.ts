import type { Database } from "../../client.js";
import { sql } from "../../drizzle.js";

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
