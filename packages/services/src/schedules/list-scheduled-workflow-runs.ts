import { listScheduledRuns, type ScheduledRunRow } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import type { PageInput } from "../list-scope.js";
import { loadVisibleNode } from "../nodes/node-records.js";

/** One tick of a scheduled workflow as it was run (docs/decisions.md, Scheduled workflows). */
export type ScheduledWorkflowRun = ScheduledRunRow;

export interface ListScheduledWorkflowRunsInput extends PageInput {
  /** The workflow: 404 when there is none, 403 when it is another owner's. */
  id: string;
}

/** One page of a visible workflow's runs, latest tick first, and their total. */
export async function listScheduledWorkflowRuns(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { id, page, limit }: ListScheduledWorkflowRunsInput,
): Promise<{ runs: ScheduledWorkflowRun[]; total: number }> {
  requireScope(actor, "canvas:read");
  await loadVisibleNode(ctx, actor, "scheduledWorkflow", id);
  const { rows, total } = await listScheduledRuns(ctx.db.db, id, {
    offset: (page - 1) * limit,
    limit,
  });
  return { runs: rows, total };
}
