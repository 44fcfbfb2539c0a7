import type { DbHandle } from "../../client.js";
import { type EventStepRow, stepsJson } from "../graph/write-pipeline-apply.js";

export interface DeliveryAttemptRow {
  id: string;
  eventId: string;
  webhookId: string;
  targetUrl: string;
  attempt: number;
  statusCode: number;
  /** At most 4 KB; the caller truncates. */
  responseBody: string;
  latencyMs: number;
  success: boolean;
  error: string | null;
  isFallback: boolean;
  attemptedAt: Date;
}

/** The event columns a finished attempt (or a settled event) writes. */
export interface EventDeliveryUpdate {
  status: "pending" | "retrying" | "delivered" | "failed" | "filtered";
  attemptCount?: number;
  lastError?: string | null;
  lastStatusCode?: number | null;
  nextAttemptAt: Date | null;
  deliveredAt?: Date | null;
  deliveryPhase?: "primary" | "fallback";
  phaseAttemptCount?: number;
}

export interface HealthAfterOutcome {
  consecutiveFailures: number;
  healthStatus: string;
}

export interface RecordDeliveryAttemptInput {
  /** Absent when the event settles without an attempt (filtered, nothing to deliver, deferral). */
  attempt?: DeliveryAttemptRow;
  eventId: string;
  webhookId: string;
  event: EventDeliveryUpdate;
  /** Set on a final outcome of the primary target: counts toward webhook health. */
  primaryOutcome?: { success: boolean };
  /**
   * What this run's node graph produced, when it was not stored yet: written in the same
   * statement (the graph's state and delivery body on the event, its steps), so a graph that
   * only shapes the delivered body costs no statement of its own.
   */
  pipeline?: PipelineRecord;
  now: Date;
}

export interface PipelineRecord {
  state: Record<string, unknown>;
  /** The bytes the graph produced; null when no node changed the raw body. */
  deliveryBody: string | null;
  steps: EventStepRow[];
}

export interface RecordDeliveryAttemptResult {
  /** False when the event was no longer open (cancelled or settled meanwhile, or deleted). */
  eventUpdated: boolean;
  /** The webhook's health after this outcome, when it changed. */
  health?: HealthAfterOutcome;
}

/** Drizzle sets the driver to pass timestamps through as text, so they travel as ISO strings. */
function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

interface ResultRow {
  updated: number;
  consecutive_failures: number | null;
  health_status: string | null;
}

/**
 * Records one attempt and its consequences in ONE statement (one round trip): the attempt row,
 * the event's new state (only while the event is still open, so a concurrent cancel wins), and,
 * on a final outcome of the primary target, the webhook's health. Health is computed in SQL from
 * the row's current count (the same rule as the domain's `nextHealth`), so concurrent workers
 * never lose an update; a success touches the webhook row only when there is something to reset,
 * keeping hot webhooks free of row locks. The statement text never varies (absent values are
 * flags), so each connection prepares it once.
 */
export async function recordDeliveryAttempt(
  handle: DbHandle,
  input: RecordDeliveryAttemptInput,
): Promise<RecordDeliveryAttemptResult> {
  const { attempt, event, primaryOutcome, pipeline } = input;
  const has = (value: unknown) => value !== undefined;
  const rows = await handle.sql<ResultRow[]>`
    with ins as (
      insert into delivery_attempts
        (id, event_id, webhook_id, target_url, is_additional_target, is_fallback, attempt,
         status_code, response_body, latency_ms, success, error, attempted_at)
      select ${attempt?.id ?? null}::text, ${input.eventId}::text, ${input.webhookId}::text,
        ${attempt?.targetUrl ?? ""}::text, false, ${attempt?.isFallback ?? false}::boolean,
        ${attempt?.attempt ?? 0}::int, ${attempt?.statusCode ?? 0}::int,
        ${attempt?.responseBody ?? ""}::text, ${attempt?.latencyMs ?? 0}::int,
        ${attempt?.success ?? false}::boolean, ${attempt?.error ?? null}::text,
        ${iso(attempt?.attemptedAt ?? input.now)}::timestamptz
      where ${attempt !== undefined}::boolean
      returning id
    ), upd as (
      update events set
        status = ${event.status}::text,
        next_attempt_at = ${iso(event.nextAttemptAt)}::timestamptz,
        updated_at = ${iso(input.now)}::timestamptz,
        attempt_count = case when ${has(event.attemptCount)}::boolean
          then ${event.attemptCount ?? 0}::int else attempt_count end,
        last_error = case when ${has(event.lastError)}::boolean
          then ${event.lastError ?? null}::text else last_error end,
        last_status_code = case when ${has(event.lastStatusCode)}::boolean
          then ${event.lastStatusCode ?? null}::int else last_status_code end,
        delivered_at = case when ${has(event.deliveredAt)}::boolean
          then ${iso(event.deliveredAt ?? null)}::timestamptz else delivered_at end,
        delivery_phase = case when ${has(event.deliveryPhase)}::boolean
          then ${event.deliveryPhase ?? "primary"}::text else delivery_phase end,
        phase_attempt_count = case when ${has(event.phaseAttemptCount)}::boolean
          then ${event.phaseAttemptCount ?? 0}::int else phase_attempt_count end,
        pipeline_state = case when ${pipeline !== undefined}::boolean
          then coalesce(pipeline_state, ${pipeline ? JSON.stringify(pipeline.state) : null}::jsonb)
          else pipeline_state end,
        delivery_body = case when ${pipeline?.deliveryBody != null}::boolean
          then ${pipeline?.deliveryBody ?? null}::text else delivery_body end
      where id = ${input.eventId}::text and status in ('pending', 'retrying')
      returning id
    ), steps as (
      insert into event_step_batches (event_id, steps)
      select upd.id, ${stepsJson(pipeline?.steps ?? [])}::json from upd
      where ${(pipeline?.steps.length ?? 0) > 0}::boolean
    ), health as (
      update webhooks set
        consecutive_failures = case when ${primaryOutcome?.success ?? false}::boolean
          then 0 else consecutive_failures + 1 end,
        health_status = case
          when ${primaryOutcome?.success ?? false}::boolean then 'healthy'
          when consecutive_failures + 1 >= down_after then 'down'
          when consecutive_failures + 1 >= degraded_after then 'degraded'
          else 'healthy' end
      where ${primaryOutcome !== undefined}::boolean and id = ${input.webhookId}::text
        and (not ${primaryOutcome?.success ?? false}::boolean
          or consecutive_failures <> 0 or health_status <> 'healthy')
      returning consecutive_failures, health_status
    )
    select (select count(*) from upd)::int as updated,
      (select consecutive_failures from health) as consecutive_failures,
      (select health_status from health) as health_status`;
  const row = rows[0];
  const result: RecordDeliveryAttemptResult = { eventUpdated: (row?.updated ?? 0) > 0 };
  if (row && row.consecutive_failures !== null && row.health_status !== null) {
    result.health = {
      consecutiveFailures: row.consecutive_failures,
      healthStatus: row.health_status,
    };
  }
  return result;
}
