import type { DbHandle } from "../../client.js";

/** Where a child event stands after its first job (what a sync flow link records). */
export interface LinkedEventState {
  id: string;
  status: string;
  parked: boolean;
  deliveryBody: string | null;
  lastError: string | null;
  lastStatusCode: number | null;
}

/** The state of these events (missing ids are absent). */
export async function findLinkedEvents(
  handle: DbHandle,
  ids: readonly string[],
): Promise<LinkedEventState[]> {
  if (ids.length === 0) return [];
  const rows = await handle.sql<
    Array<{
      id: string;
      status: string;
      parked: boolean;
      delivery_body: string | null;
      last_error: string | null;
      last_status_code: number | null;
    }>
  >`
    select id, status, parked_at is not null as parked, delivery_body, last_error, last_status_code
    from events where id = any(${ids as string[]}::text[])`;
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    parked: row.parked,
    deliveryBody: row.delivery_body,
    lastError: row.last_error,
    lastStatusCode: row.last_status_code,
  }));
}

/**
 * Appends steps (JSON texts, `stepJson` of @hookflow/pipeline) to an event's history as one
 * batch, only while the event exists (its delete trigger removes batches; a batch written after
 * would be left behind).
 */
export async function appendEventSteps(
  handle: DbHandle,
  eventId: string,
  steps: readonly string[],
): Promise<void> {
  if (steps.length === 0) return;
  await handle.sql`
    insert into event_step_batches (event_id, steps)
    select ${eventId}, ${`[${steps.join(",")}]`}::json
    where exists (select 1 from events where id = ${eventId})`;
}
