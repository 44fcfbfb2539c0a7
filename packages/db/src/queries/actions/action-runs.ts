import type { DbHandle } from "../../client.js";

export interface ClaimActionRunInput {
  id: string;
  actionId: string;
  eventId: string;
  webhookId: string;
  family: string;
  trigger: "success" | "failure";
  now: Date;
}

export type ClaimActionRunResult =
  /** This try may run. `interrupted`: an earlier try started and never finished (a crash). */
  | { kind: "claimed"; runId: string; tries: number; interrupted: boolean }
  /** The action already ran to its end for this event: nothing more to do. */
  | { kind: "settled"; status: string }
  /** The event was deleted. */
  | { kind: "event_gone" };

interface ClaimRow {
  id: string;
  tries: number;
  previous: string | null;
}

/**
 * Claims the run of an action for an event, one row per (action, event): the first try inserts
 * it, a later try (a retry, or a job redelivered after a crash) takes it over while it is not
 * finished, and a finished run is never claimed again, so an action fires at most once per event
 * however often it is triggered.
 */
export async function claimActionRun(
  handle: DbHandle,
  input: ClaimActionRunInput,
): Promise<ClaimActionRunResult> {
  const now = input.now.toISOString();
  const [row] = await handle.sql<ClaimRow[]>`
    with previous as (
      select status from action_runs
      where action_id = ${input.actionId} and event_id = ${input.eventId}
    )
    insert into action_runs as r
      (id, action_id, event_id, webhook_id, family, trigger, status, tries, started_at)
    select ${input.id}, ${input.actionId}, ${input.eventId}, ${input.webhookId}, ${input.family},
      ${input.trigger}, 'running', 1, ${now}::timestamptz
    where exists (select 1 from events where id = ${input.eventId})
    on conflict (action_id, event_id) do update
      set status = 'running', tries = r.tries + 1, started_at = excluded.started_at
      where r.status in ('running', 'retrying')
    returning r.id, r.tries, (select status from previous) as previous`;
  if (row) {
    return {
      kind: "claimed",
      runId: row.id,
      tries: row.tries,
      interrupted: row.previous === "running",
    };
  }
  const [existing] = await handle.sql<Array<{ status: string }>>`
    select status from action_runs
    where action_id = ${input.actionId} and event_id = ${input.eventId}`;
  return existing ? { kind: "settled", status: existing.status } : { kind: "event_gone" };
}

export interface FinishActionRunInput {
  runId: string;
  eventId: string;
  status: "success" | "failed" | "retrying";
  statusCode: number | null;
  response: string | null;
  error: string | null;
  durationMs: number;
  /** The try's steps (running, then its outcome) as the JSON array a step batch holds. */
  stepsJson: string;
  now: Date;
}

/**
 * Records a try's end and its steps in one statement: the run's row, and a step batch of the
 * event (so `GET /events/:id/steps` lists the action), written only while the event exists.
 */
export async function finishActionRun(
  handle: DbHandle,
  input: FinishActionRunInput,
): Promise<void> {
  const now = input.now.toISOString();
  const finished = input.status === "retrying" ? null : now;
  await handle.sql`
    with run as (
      update action_runs set status = ${input.status}, status_code = ${input.statusCode},
        response = ${input.response}, error = ${input.error}, duration_ms = ${input.durationMs},
        finished_at = ${finished}::timestamptz
      where id = ${input.runId}
      returning event_id
    )
    insert into event_step_batches (event_id, steps)
    select event_id, ${input.stepsJson}::json from run
    where exists (select 1 from events where id = ${input.eventId})`;
}

export interface ActionRunRecord {
  id: string;
  actionId: string;
  family: string;
  trigger: string;
  status: string;
  tries: number;
  statusCode: number | null;
  response: string | null;
  error: string | null;
  durationMs: number | null;
  startedAt: Date;
  finishedAt: Date | null;
}

interface RunRow {
  id: string;
  action_id: string;
  family: string;
  trigger: string;
  status: string;
  tries: number;
  status_code: number | null;
  response: string | null;
  error: string | null;
  duration_ms: number | null;
  started_at: Date | string;
  finished_at: Date | string | null;
}

/** The action runs of an event, in the order they started. */
export async function listActionRuns(
  handle: DbHandle,
  eventId: string,
): Promise<ActionRunRecord[]> {
  const rows = await handle.sql<RunRow[]>`
    select id, action_id, family, trigger, status, tries, status_code, response, error,
      duration_ms, started_at, finished_at
    from action_runs where event_id = ${eventId} order by id`;
  return rows.map((row) => ({
    id: row.id,
    actionId: row.action_id,
    family: row.family,
    trigger: row.trigger,
    status: row.status,
    tries: row.tries,
    statusCode: row.status_code,
    response: row.response,
    error: row.error,
    durationMs: row.duration_ms,
    startedAt: new Date(row.started_at),
    finishedAt: row.finished_at === null ? null : new Date(row.finished_at),
  }));
}
