import type { DbHandle } from "../../client.js";
import { stepsJson } from "../graph/write-pipeline-apply.js";
import type {
  RecordDeliveryAttemptInput,
  RecordDeliveryAttemptResult,
} from "./record-delivery-attempt.js";

/** Drizzle sets the driver to pass timestamps through as text, so they travel as ISO strings. */
function iso(value: Date | null | undefined): string | null {
  return value === null || value === undefined ? null : value.toISOString();
}

/**
 * One record as a row of the batch's JSON: every column of the attempt and of the event update,
 * with `has_*` flags for the event columns the record leaves as they are. The step batch (already
 * JSON text) is spliced in as a JSON value rather than serialized again.
 */
function recordJson(input: RecordDeliveryAttemptInput, ord: number): string {
  const { attempt, event, primaryOutcome, pipeline } = input;
  const row = {
    ord,
    event_id: input.eventId,
    webhook_id: input.webhookId,
    has_attempt: attempt !== undefined,
    att_id: attempt?.id ?? null,
    att_target_url: attempt?.targetUrl ?? "",
    att_is_fallback: attempt?.isFallback ?? false,
    att_attempt: attempt?.attempt ?? 0,
    att_status_code: attempt?.statusCode ?? 0,
    att_response_body: attempt?.responseBody ?? "",
    att_latency_ms: attempt?.latencyMs ?? 0,
    att_success: attempt?.success ?? false,
    att_error: attempt?.error ?? null,
    att_attempted_at: iso(attempt?.attemptedAt ?? input.now),
    status: event.status,
    next_attempt_at: iso(event.nextAttemptAt),
    updated_at: iso(input.now),
    has_attempt_count: event.attemptCount !== undefined,
    attempt_count: event.attemptCount ?? 0,
    has_last_error: event.lastError !== undefined,
    last_error: event.lastError ?? null,
    has_last_status_code: event.lastStatusCode !== undefined,
    last_status_code: event.lastStatusCode ?? null,
    has_delivered_at: event.deliveredAt !== undefined,
    delivered_at: iso(event.deliveredAt),
    has_delivery_phase: event.deliveryPhase !== undefined,
    delivery_phase: event.deliveryPhase ?? "primary",
    has_phase_attempt_count: event.phaseAttemptCount !== undefined,
    phase_attempt_count: event.phaseAttemptCount ?? 0,
    has_pipeline: pipeline !== undefined,
    pipeline_state: pipeline?.state ?? null,
    delivery_body: pipeline?.deliveryBody ?? null,
    outcome: primaryOutcome === undefined ? null : primaryOutcome.success ? "success" : "failure",
  };
  const json = JSON.stringify(row);
  const steps = pipeline?.steps ?? [];
  if (steps.length === 0) return json;
  return `${json.slice(0, -1)},"steps":${stepsJson(steps)}}`;
}

interface ResultRow {
  updated: string[] | null;
  health: Array<{ id: string; consecutive_failures: number; health_status: string }> | null;
}

/**
 * Records many settled attempts in ONE statement (the worker group-commits the records of the
 * jobs settling in the same few milliseconds): the attempt rows, each event's new state (only
 * while the event is still open, so a concurrent cancel wins), the step batches of graph runs
 * stored with their first record, and each webhook's health after the primary outcomes of the
 * batch, in batch order: a success resets the count, each failure after it adds one (the same
 * rule as the domain's `nextHealth`, computed in SQL from the row's current count, so concurrent
 * workers never lose an update). A webhook whose health would not change is not touched, keeping
 * hot webhooks free of row locks. The statement text never varies, so each connection prepares
 * it once, and every plan of it finds the batch's events by primary key (see the comment on the
 * events update). Results come back in input order.
 */
export async function recordDeliveryAttempts(
  handle: DbHandle,
  inputs: readonly RecordDeliveryAttemptInput[],
): Promise<RecordDeliveryAttemptResult[]> {
  const batch = `[${inputs.map(recordJson).join(",")}]`;
  const rows = await handle.sql<ResultRow[]>`
    with input as (
      select * from json_to_recordset(${batch}::json) as x(
        ord int, event_id text, webhook_id text, has_attempt boolean, att_id text,
        att_target_url text, att_is_fallback boolean, att_attempt int, att_status_code int,
        att_response_body text, att_latency_ms int, att_success boolean, att_error text,
        att_attempted_at timestamptz, status text, next_attempt_at timestamptz,
        updated_at timestamptz, has_attempt_count boolean, attempt_count int,
        has_last_error boolean, last_error text, has_last_status_code boolean,
        last_status_code int, has_delivered_at boolean, delivered_at timestamptz,
        has_delivery_phase boolean, delivery_phase text, has_phase_attempt_count boolean,
        phase_attempt_count int, has_pipeline boolean, pipeline_state jsonb, delivery_body text,
        steps json, outcome text)
      -- Always true (ord counts from 0), but a range on a column without statistics is taken to
      -- keep 0.5 % of rows, so the planner expects a batch of one row: one key lookup in events
      -- then costs less than any scan of it, at any table size (json_to_recordset is otherwise
      -- assumed to return 100 rows, and a hash join over a sequential scan wins on a table of
      -- some thousands of rows; a generic plan made then is kept until the next ANALYZE).
      where ord between 0 and 2147483647
    ), ins as (
      insert into delivery_attempts
        (id, event_id, webhook_id, target_url, is_additional_target, is_fallback, attempt,
         status_code, response_body, latency_ms, success, error, attempted_at)
      select att_id, event_id, webhook_id, att_target_url, false, att_is_fallback, att_attempt,
        att_status_code, att_response_body, att_latency_ms, att_success, att_error,
        att_attempted_at
      from input where has_attempt
    ), upd as (
      update events e set
        status = i.status,
        next_attempt_at = i.next_attempt_at,
        updated_at = i.updated_at,
        attempt_count = case when i.has_attempt_count then i.attempt_count else e.attempt_count end,
        last_error = case when i.has_last_error then i.last_error else e.last_error end,
        last_status_code = case when i.has_last_status_code
          then i.last_status_code else e.last_status_code end,
        delivered_at = case when i.has_delivered_at then i.delivered_at else e.delivered_at end,
        delivery_phase = case when i.has_delivery_phase
          then i.delivery_phase else e.delivery_phase end,
        phase_attempt_count = case when i.has_phase_attempt_count
          then i.phase_attempt_count else e.phase_attempt_count end,
        pipeline_state = case when i.has_pipeline
          then coalesce(e.pipeline_state, i.pipeline_state) else e.pipeline_state end,
        delivery_body = case when i.delivery_body is not null
          then i.delivery_body else e.delivery_body end
      from input i
      -- The open-status test is wrapped so no plan can read it as an index condition: events are
      -- found by key only. A cached generic plan made while few events were open otherwise scans
      -- every open event (the open-events partial index) into a hash join, for each batch.
      -- With the batch's one-row estimate above, every plan is a nested loop of key lookups.
      where e.id = i.event_id and coalesce(e.status in ('pending', 'retrying'), false)
      returning e.id
    ), steps as (
      insert into event_step_batches (event_id, steps)
      select i.event_id, i.steps from input i join upd on upd.id = i.event_id
      where i.steps is not null
    ), outcomes as (
      select webhook_id,
        bool_or(outcome = 'success') as any_success,
        count(*) filter (where outcome = 'failure') as failures,
        count(*) filter (where outcome = 'failure' and ord > coalesce(
          (select max(ord) from input s where s.webhook_id = o.webhook_id
            and s.outcome = 'success'), -1)) as failures_after_success
      from input o where outcome is not null
      group by webhook_id
    ), counted as (
      -- The new count is computed inside the UPDATE, from the row as the UPDATE finds it: a
      -- concurrent statement's update is re-read under READ COMMITTED, so none is lost.
      select o.webhook_id,
        case when o.any_success then o.failures_after_success else 0 end as reset_to,
        not o.any_success as adds, o.failures
      from outcomes o
    ), health as (
      update webhooks w set
        consecutive_failures = case when c.adds then w.consecutive_failures + c.failures
          else c.reset_to end,
        health_status = case
          when (case when c.adds then w.consecutive_failures + c.failures else c.reset_to end)
            >= w.down_after then 'down'
          when (case when c.adds then w.consecutive_failures + c.failures else c.reset_to end)
            >= w.degraded_after then 'degraded'
          else 'healthy' end
      from counted c
      where w.id = c.webhook_id
        and (c.adds or c.reset_to <> 0 or w.consecutive_failures <> 0
          or w.health_status <> 'healthy')
      returning w.id, w.consecutive_failures, w.health_status
    )
    select (select array_agg(id) from upd) as updated,
      (select json_agg(health) from health) as health`;
  const row = rows[0];
  const updated = new Set(row?.updated ?? []);
  const health = new Map((row?.health ?? []).map((h) => [h.id, h]));
  return inputs.map((input) => {
    const result: RecordDeliveryAttemptResult = { eventUpdated: updated.has(input.eventId) };
    const changed = input.primaryOutcome === undefined ? undefined : health.get(input.webhookId);
    if (changed) {
      result.health = {
        consecutiveFailures: changed.consecutive_failures,
        healthStatus: changed.health_status,
      };
    }
    return result;
  });
}
