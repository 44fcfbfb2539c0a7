import type { DbHandle } from "../../client.js";

/** What a delivery worker reads of an event before an attempt. */
export interface DeliveryEvent {
  id: string;
  webhookId: string;
  status: string;
  priority: number;
  attemptCount: number;
  deliveryPhase: string;
  phaseAttemptCount: number;
  /** The bytes to deliver (`delivery_body`, else the raw ingress body); absent when not asked. */
  body?: string;
  eventType: string | null;
  /** The body the node graph produced (read even when the job carries the raw body). */
  deliveryBody: string | null;
  /** The node graph's run and what it produced so far (null: the graph has not run). */
  pipelineRun: string | null;
  pipelineState: Record<string, unknown> | null;
  /** The graph vertex the event enters at when not its webhook (a scheduled workflow). */
  entryNodeId: string | null;
}

interface Row {
  id: string;
  webhook_id: string;
  status: string;
  priority: number;
  attempt_count: number;
  delivery_phase: string;
  phase_attempt_count: number;
  body?: string | null;
  event_type: string | null;
  delivery_body: string | null;
  pipeline_run: string | null;
  pipeline_state: Record<string, unknown> | null;
  entry_node_id: string | null;
}

/** One event as a delivery worker reads it (see `findDeliveryEvents`). */
export async function findDeliveryEvent(
  handle: DbHandle,
  id: string,
  options: { withBody: boolean },
): Promise<DeliveryEvent | undefined> {
  const [event] = await findDeliveryEvents(handle, [{ id, withBody: options.withBody }]);
  return event;
}

function eventOf(row: Row): DeliveryEvent {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    status: row.status,
    priority: row.priority,
    attemptCount: row.attempt_count,
    deliveryPhase: row.delivery_phase,
    phaseAttemptCount: row.phase_attempt_count,
    eventType: row.event_type,
    deliveryBody: row.delivery_body,
    pipelineRun: row.pipeline_run,
    pipelineState: row.pipeline_state,
    entryNodeId: row.entry_node_id,
  };
}

export interface DeliveryEventRequest {
  id: string;
  /** Read the body too (the job does not carry it). */
  withBody: boolean;
}

/**
 * `findDeliveryEvent` for many jobs at once: ONE statement (fixed text, prepared once per
 * connection) reads every requested event, the body only of those asked with it. The worker
 * batches the reads of the jobs that start in the same event-loop turn, so a busy worker makes a
 * few reads where it made one per delivery. Results come back in request order.
 */
export async function findDeliveryEvents(
  handle: DbHandle,
  requests: readonly DeliveryEventRequest[],
): Promise<Array<DeliveryEvent | undefined>> {
  const ids = requests.map((request) => request.id);
  const withBody = requests.filter((request) => request.withBody).map((request) => request.id);
  const rows = await handle.sql<Row[]>`
    select id, webhook_id, status, priority, attempt_count, delivery_phase, phase_attempt_count,
      case when id = any(${withBody}::text[]) then coalesce(delivery_body, body) end as body,
      event_type, delivery_body, pipeline_run, pipeline_state, entry_node_id
    from events where id = any(${ids}::text[])`;
  const byId = new Map<string, Row>();
  for (const row of rows) byId.set(row.id, row);
  return requests.map((request) => {
    const row = byId.get(request.id);
    if (!row) return undefined;
    const event = eventOf(row);
    if (request.withBody && typeof row.body === "string") event.body = row.body;
    return event;
  });
}
