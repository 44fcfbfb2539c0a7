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
}

interface Row {
  id: string;
  webhook_id: string;
  status: string;
  priority: number;
  attempt_count: number;
  delivery_phase: string;
  phase_attempt_count: number;
  body?: string;
  event_type: string | null;
  delivery_body: string | null;
  pipeline_run: string | null;
  pipeline_state: Record<string, unknown> | null;
}

/**
 * One primary-key read on the hot path, as a fixed prepared statement on the raw driver (no query
 * building per job). With `withBody: false` (the job carries the body) the body columns are not
 * read at all, keeping large payloads off the wire.
 */
export async function findDeliveryEvent(
  handle: DbHandle,
  id: string,
  options: { withBody: boolean },
): Promise<DeliveryEvent | undefined> {
  const rows = options.withBody
    ? await handle.sql<Row[]>`
        select id, webhook_id, status, priority, attempt_count, delivery_phase,
          phase_attempt_count, coalesce(delivery_body, body) as body, event_type, delivery_body,
          pipeline_run, pipeline_state
        from events where id = ${id}`
    : await handle.sql<Row[]>`
        select id, webhook_id, status, priority, attempt_count, delivery_phase,
          phase_attempt_count, event_type, delivery_body, pipeline_run, pipeline_state
        from events where id = ${id}`;
  const row = rows[0];
  if (!row) return undefined;
  const event: DeliveryEvent = {
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
  };
  if (row.body !== undefined) event.body = row.body;
  return event;
}
