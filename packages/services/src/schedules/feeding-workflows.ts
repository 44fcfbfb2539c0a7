import { type DbExecutor, findPipelineNodesFedBy, type PipelineNodeRow } from "@hookflow/db";
import { ConflictError, ValidationError } from "@hookflow/domain";

/**
 * A scheduled workflow feeds the nodes that list it in inputNodes with the events its ticks
 * inject into its webhook (docs/decisions.md, Scheduled workflows). A workflow that calls a url
 * injects no event, so it feeds nothing.
 */

function callsUrl(config: Record<string, unknown>): boolean {
  return config.webhookId === null || config.webhookId === undefined;
}

/** 400 when an inputNodes entry names a scheduled workflow that calls a url. */
export function checkFeedingWorkflow(field: string, node: PipelineNodeRow): void {
  if (!field.startsWith("inputNodes.") || node.family !== "scheduledWorkflow") return;
  if (!callsUrl(node.config)) return;
  throw new ValidationError(
    `${field}: scheduled workflow ${node.id} calls a url; only a workflow with a webhookId ` +
      "injects events that nodes can take",
  );
}

/** 409 when a workflow that feeds nodes would switch to calling a url. */
export async function checkStillFeeds(db: DbExecutor, id: string, config: object): Promise<void> {
  if (!callsUrl(config as Record<string, unknown>)) return;
  const fed = (await findPipelineNodesFedBy(db, [id])).filter((node) => node.id !== id);
  const [first] = fed;
  if (!first) return;
  throw new ConflictError(
    `${first.id} (${first.name}) takes this workflow's events; a workflow that feeds nodes ` +
      "needs its webhookId (remove it from their inputNodes first)",
  );
}
