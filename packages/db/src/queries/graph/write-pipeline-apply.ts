import type postgres from "postgres";

/**
 * One step as its stored element: the JSON text the worker wrote once for the step's stream
 * message and its batch (`stepJson` of @hookflow/pipeline: `{eventId, nodeType, nodeId, nodeName?,
 * status, statusCode?, durationMs?, error?, at, lastPayload?}`), stored as is.
 */
export type EventStepRow = string;

export interface NewParkRow {
  id: string;
  webhookId: string;
  runId: string | null;
  nodeType: string;
  nodeId: string;
  kind: string;
  /** The path's payload as JSON text. */
  payload: string;
  state: Record<string, unknown>;
  /** `waiting`, or already resolved (`resumed`, `expired`: an arrival at a settled merge). */
  status: string;
  resumeAt: Date;
}

/** A new event the run creates: a further path of the same webhook, or a forward. */
export interface NewPipelineEventRow {
  id: string;
  webhookId: string;
  eventType: string | null;
  body: string;
  /** Set for events that skip their graph (further paths of the same webhook). */
  pipelineState: Record<string, unknown> | null;
  /**
   * A forward into another webhook: one level deeper than its parent (`forward_depth`). Either
   * way the new event shares its parent's root (`root_event_id`) and so its forwarding budget.
   */
  forward: boolean;
}

/** How the event row changes; absent fields stay as they are. */
export interface EventPipelineUpdate {
  pipelineState: Record<string, unknown>;
  pipelineRun?: string;
  /** A final status; applied only while the event is still pending or retrying. */
  status?: "delivered" | "failed" | "filtered";
  lastError?: string | null;
  deliveryBody?: string;
  /** Park flags: set while parked, cleared when a path delivers the event or it settles. */
  flags?: {
    awaitingApproval: boolean;
    awaitingMerge: boolean;
    delayed: boolean;
    parkedAt: { nodeType: string; nodeId: string } | null;
  };
  nextAttemptAt?: Date | null;
}

export interface PipelineApplyWrite {
  eventId: string;
  now: Date;
  /** Apply only if the graph has not run yet in this run and the event is still open. */
  freshOnly: boolean;
  event: EventPipelineUpdate;
  steps: EventStepRow[];
  parks: NewParkRow[];
  newEvents: NewPipelineEventRow[];
  /** Arrivals still waiting at these merges (of this run) are resolved. */
  resolveMerges: Array<{ nodeId: string; status: string }>;
}

export interface PipelineApplyResult {
  applied: boolean;
  /** The events created (a forward to a webhook deleted meanwhile is skipped). */
  createdEvents: Array<{ id: string; webhookId: string; priority: number }>;
}

interface ResultRow {
  applied: number;
  created: Array<{ id: string; webhook_id: string; priority: number }>;
}

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null);
const json = (value: unknown) => JSON.stringify(value);

/**
 * Applies what one pipeline job produced, in ONE statement: the event's new state, its steps,
 * new parks, resolved merge arrivals and the events it creates. With `freshOnly` the whole
 * statement is a no-op when the graph already ran for this run (a retried or redelivered job), so
 * a run is applied exactly once. Rows travel as JSON parameters, so the statement text never
 * varies and each connection prepares it once.
 */
export async function writePipelineApply(
  sql: postgres.Sql | postgres.TransactionSql,
  write: PipelineApplyWrite,
): Promise<PipelineApplyResult> {
  const { event } = write;
  const now = write.now.toISOString();
  const flags = event.flags;
  const rows = await (sql as postgres.Sql)<ResultRow[]>`
    with ev as (
      update events set
        pipeline_state = ${json(event.pipelineState)}::jsonb,
        pipeline_run = coalesce(${event.pipelineRun ?? null}::text, pipeline_run),
        last_error = case when ${event.status !== undefined}::boolean
            and status in ('pending', 'retrying')
          then ${event.lastError ?? null}::text else last_error end,
        delivered_at = case when ${event.status === "delivered"}::boolean
            and status in ('pending', 'retrying')
          then ${now}::timestamptz else delivered_at end,
        status = case when ${event.status !== undefined}::boolean
            and status in ('pending', 'retrying')
          then ${event.status ?? "pending"}::text else status end,
        delivery_body = case when ${event.deliveryBody !== undefined}::boolean
          then ${event.deliveryBody ?? null}::text else delivery_body end,
        awaiting_approval = case when ${flags !== undefined}::boolean
          then ${flags?.awaitingApproval ?? false}::boolean else awaiting_approval end,
        awaiting_merge = case when ${flags !== undefined}::boolean
          then ${flags?.awaitingMerge ?? false}::boolean else awaiting_merge end,
        delayed = case when ${flags !== undefined}::boolean
          then ${flags?.delayed ?? false}::boolean else delayed end,
        parked_at = case when ${flags !== undefined}::boolean
          then ${flags?.parkedAt ? json(flags.parkedAt) : null}::jsonb else parked_at end,
        next_attempt_at = case when ${event.nextAttemptAt !== undefined}::boolean
          then ${iso(event.nextAttemptAt)}::timestamptz else next_attempt_at end,
        updated_at = ${now}::timestamptz
      where id = ${write.eventId}::text
        and (not ${write.freshOnly}::boolean
          or (pipeline_state is null and status in ('pending', 'retrying')))
      returning id, pipeline_run, coalesce(root_event_id, id) as root_event_id, forward_depth
    ), step_rows as (
      insert into event_step_batches (event_id, steps)
      select ev.id, ${stepsJson(write.steps)}::json from ev where ${write.steps.length > 0}::boolean
    ), park_rows as (
      insert into event_parks (id, event_id, webhook_id, run_id, node_type, node_id, kind,
        payload, state, status, resume_at, decided_at, resolved_at, created_at, updated_at)
      select p.id, ev.id, p.webhook_id, p.run_id, p.node_type, p.node_id, p.kind, p.payload,
        p.state, p.status, p.resume_at,
        case when p.status = 'waiting' then null else ${now}::timestamptz end,
        case when p.status = 'waiting' then null else ${now}::timestamptz end,
        ${now}::timestamptz, ${now}::timestamptz
      from ev, jsonb_to_recordset(${json(write.parks.map(parkRecord))}::jsonb)
        as p(id text, webhook_id text, run_id text, node_type text, node_id text, kind text,
          payload text, state jsonb, status text, resume_at timestamptz)
    ), merge_rows as (
      update event_parks ep set status = m.status, decided_at = ${now}::timestamptz,
        resolved_at = ${now}::timestamptz, updated_at = ${now}::timestamptz
      from ev, jsonb_to_recordset(${json(write.resolveMerges.map(mergeRecord))}::jsonb)
        as m(node_id text, status text)
      where ep.event_id = ev.id and ep.node_id = m.node_id and ep.kind = 'merge'
        and ep.status = 'waiting' and ep.run_id is not distinct from ev.pipeline_run
    ), created as (
      insert into events (id, webhook_id, status, event_type, body, headers, priority,
        parent_event_id, root_event_id, forward_depth, pipeline_state, next_attempt_at,
        created_at, updated_at)
      select e.id, e.webhook_id, 'pending', e.event_type, e.body, '{}'::jsonb, w.priority, ev.id,
        ev.root_event_id, ev.forward_depth + case when e.forward then 1 else 0 end,
        e.pipeline_state, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      from ev, jsonb_to_recordset(${json(write.newEvents.map(eventRecord))}::jsonb)
        as e(id text, webhook_id text, event_type text, body text, pipeline_state jsonb,
          forward boolean)
      join webhooks w on w.id = e.webhook_id
      returning id, webhook_id, priority
    )
    select (select count(*) from ev)::int as applied,
      coalesce((select json_agg(created) from created), '[]'::json) as created`;
  const row = rows[0];
  return {
    applied: (row?.applied ?? 0) > 0,
    createdEvents: (row?.created ?? []).map((c) => ({
      id: c.id,
      webhookId: c.webhook_id,
      priority: c.priority,
    })),
  };
}

/** A job's steps as the JSON array one `event_step_batches` row holds, in order. */
export function stepsJson(steps: readonly EventStepRow[]): string {
  return `[${steps.join(",")}]`;
}

function parkRecord(park: NewParkRow) {
  return {
    id: park.id,
    webhook_id: park.webhookId,
    run_id: park.runId,
    node_type: park.nodeType,
    node_id: park.nodeId,
    kind: park.kind,
    payload: park.payload,
    state: park.state,
    status: park.status,
    resume_at: park.resumeAt.toISOString(),
  };
}

function mergeRecord(merge: { nodeId: string; status: string }) {
  return { node_id: merge.nodeId, status: merge.status };
}

function eventRecord(event: NewPipelineEventRow) {
  return {
    id: event.id,
    webhook_id: event.webhookId,
    event_type: event.eventType,
    body: event.body,
    pipeline_state: event.pipelineState,
    forward: event.forward,
  };
}
