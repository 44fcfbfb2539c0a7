import type { DbHandle } from "../../client.js";

/** A park as a resume job reads it. */
export interface ParkRecord {
  id: string;
  eventId: string;
  webhookId: string;
  runId: string | null;
  nodeType: string;
  nodeId: string;
  kind: string;
  payload: string;
  state: Record<string, unknown>;
  status: string;
  resumeAt: Date | null;
  decidedBy: string | null;
  resolvedAt: Date | null;
  /** The event's raw body: what a path delivers while no node changed it. */
  eventBody: string;
}

interface Row {
  id: string;
  event_id: string;
  webhook_id: string;
  run_id: string | null;
  node_type: string;
  node_id: string;
  kind: string;
  payload: string;
  state: Record<string, unknown>;
  status: string;
  resume_at: Date | string | null;
  decided_by: string | null;
  resolved_at: Date | string | null;
  event_body: string;
}

const date = (value: Date | string | null) => (value === null ? null : new Date(value));

export async function findPark(handle: DbHandle, id: string): Promise<ParkRecord | undefined> {
  const rows = await handle.sql<Row[]>`
    select p.id, p.event_id, p.webhook_id, p.run_id, p.node_type, p.node_id, p.kind, p.payload,
      p.state, p.status, p.resume_at, p.decided_by, p.resolved_at, e.body as event_body
    from event_parks p join events e on e.id = p.event_id
    where p.id = ${id}`;
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    runId: row.run_id,
    nodeType: row.node_type,
    nodeId: row.node_id,
    kind: row.kind,
    payload: row.payload,
    state: row.state,
    status: row.status,
    resumeAt: date(row.resume_at),
    decidedBy: row.decided_by,
    resolvedAt: date(row.resolved_at),
    eventBody: row.event_body,
  };
}

/**
 * Applies an approval gate's `autoActionOnTimeout` atomically: only a park still waiting takes
 * `status` (an approve or reject racing the timeout wins or loses cleanly). Returns the park's
 * decision afterwards: the timeout's, or the one that won (`decidedBy` tells which).
 */
export async function decideParkOnTimeout(
  handle: DbHandle,
  input: { id: string; status: "approved" | "rejected"; now: Date },
): Promise<{ status: string; decidedBy: string | null } | undefined> {
  const now = input.now.toISOString();
  const rows = await handle.sql<Array<{ status: string; decided_by: string | null }>>`
    with decided as (
      update event_parks set status = ${input.status}, decided_at = ${now}::timestamptz,
        decided_by = 'timeout', updated_at = ${now}::timestamptz
      where id = ${input.id} and status = 'waiting'
      returning status, decided_by
    )
    select status, decided_by from decided
    union all
    select status, decided_by from event_parks
    where id = ${input.id} and not exists (select 1 from decided)`;
  const row = rows[0];
  return row ? { status: row.status, decidedBy: row.decided_by } : undefined;
}
