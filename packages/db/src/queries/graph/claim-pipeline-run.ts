import type { DbHandle } from "../../client.js";

/**
 * The event's current pipeline run id: `candidate` becomes it unless a run was claimed already
 * (a redelivered job reuses the first job's run, so its merge arrivals and rate-limit members
 * are the same). Undefined when the event is gone or no longer open.
 */
export async function claimPipelineRun(
  handle: DbHandle,
  eventId: string,
  candidate: string,
): Promise<string | undefined> {
  const rows = await handle.sql<Array<{ pipeline_run: string }>>`
    update events set pipeline_run = coalesce(pipeline_run, ${candidate})
    where id = ${eventId} and status in ('pending', 'retrying')
    returning pipeline_run`;
  return rows[0]?.pipeline_run;
}
