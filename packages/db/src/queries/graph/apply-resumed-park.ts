import type { DbHandle } from "../../client.js";
import {
  type PipelineApplyResult,
  type PipelineApplyWrite,
  writePipelineApply,
} from "./write-pipeline-apply.js";

/** The event as a resumed path finds it, under its row lock. */
export interface ResumeSnapshot {
  status: string;
  pipelineRun: string | null;
  pipelineState: Record<string, unknown> | null;
  /** Other parks of this run still waiting, oldest first. */
  waiting: Array<{ kind: string; nodeType: string; nodeId: string }>;
}

export type ResumeApplyResult =
  | { kind: "applied"; result: PipelineApplyResult; snapshot: ResumeSnapshot }
  /** The park's continuation was applied already (a retried job), or the event is gone. */
  | { kind: "stale" }
  /** `plan` declined (event cancelled, another run): the park was closed with that status. */
  | { kind: "closed"; status: string };

export type ResumePlan =
  | { kind: "write"; write: Omit<PipelineApplyWrite, "eventId" | "now" | "freshOnly"> }
  | { kind: "close"; status: "cancelled" };

interface EventRow {
  status: string;
  pipeline_run: string | null;
  pipeline_state: Record<string, unknown> | null;
}

/**
 * Applies a resumed path in one transaction holding the event's row lock, so two paths of one
 * event finishing at once (two workers, merge branches) apply one after the other and each sees
 * the other's parks and state. The park is marked resolved first, only if it was not resolved
 * yet: a retried job finds it resolved and applies nothing. `parkStatus` is what a still-waiting
 * park becomes (`resumed`, or the approval decision taken on timeout).
 */
export async function applyResumedPark(
  handle: DbHandle,
  input: { eventId: string; parkId: string; parkStatus: string; now: Date },
  plan: (snapshot: ResumeSnapshot) => ResumePlan,
): Promise<ResumeApplyResult> {
  const now = input.now.toISOString();
  return handle.sql.begin(async (tx) => {
    const [event] = await tx<EventRow[]>`
      select status, pipeline_run, pipeline_state from events
      where id = ${input.eventId} for update`;
    if (!event) return { kind: "stale" } as const;
    const snapshotBase = {
      status: event.status,
      pipelineRun: event.pipeline_run,
      pipelineState: event.pipeline_state,
    };
    const [park] = await tx<Array<{ run_id: string | null }>>`
      select run_id from event_parks
      where id = ${input.parkId} and event_id = ${input.eventId} and resolved_at is null
      for update`;
    if (!park) return { kind: "stale" } as const;
    const waiting = await tx<Array<{ kind: string; node_type: string; node_id: string }>>`
      select kind, node_type, node_id from event_parks
      where event_id = ${input.eventId} and status = 'waiting' and id <> ${input.parkId}
        and run_id is not distinct from ${park.run_id}
      order by created_at, id`;
    const snapshot: ResumeSnapshot = {
      ...snapshotBase,
      waiting: waiting.map((w) => ({ kind: w.kind, nodeType: w.node_type, nodeId: w.node_id })),
    };
    const decided = plan(snapshot);
    const status = decided.kind === "close" ? decided.status : input.parkStatus;
    await tx`
      update event_parks set
        status = case when status = 'waiting' then ${status}::text else status end,
        decided_at = coalesce(decided_at, ${now}::timestamptz),
        resolved_at = ${now}::timestamptz,
        updated_at = ${now}::timestamptz
      where id = ${input.parkId}`;
    if (decided.kind === "close") return { kind: "closed", status } as const;
    const result = await writePipelineApply(tx, {
      ...decided.write,
      eventId: input.eventId,
      now: input.now,
      freshOnly: false,
    });
    return { kind: "applied", result, snapshot } as const;
  });
}
