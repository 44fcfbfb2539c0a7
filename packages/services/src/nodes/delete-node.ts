import { deletePipelineNode, lockPipelineNode, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf } from "@hookflow/domain";
import type { FamilyKey } from "@hookflow/pipeline";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type ScheduleSyncContext, syncSchedulerAfterWrite } from "../schedules/sync-scheduler.js";
import { detachReferences } from "./detach-references.js";
import { loadVisibleNode, nodeGone, publishGraphChanged } from "./node-records.js";

export interface DeleteNodeInput {
  family: FamilyKey;
  id: string;
}

/**
 * Deletes a visible node of `family` and, in the same transaction, removes it from every other
 * node that references it, so the graph never holds a dangling edge (409 when a node of the same
 * owner cannot do without it). A scheduled workflow's job scheduler goes with it.
 */
export async function deleteNode(
  ctx: ServiceContext & ScheduleSyncContext,
  actor: Actor,
  { family: key, id }: DeleteNodeInput,
): Promise<void> {
  requireScope(actor, "canvas:write");
  const node = await loadVisibleNode(ctx, actor, key, id);
  const changed = await withGraphWriteLock(ctx.db.db, ownerScopeOf(node), async (tx) => {
    const locked = await lockPipelineNode(tx, id);
    if (!locked || locked.family !== key) throw nodeGone(key);
    const detached = await detachReferences(tx, node, ctx.now());
    if (!(await deletePipelineNode(tx, id))) throw nodeGone(key);
    return detached;
  });
  await publishGraphChanged(ctx, [id, ...changed]);
  if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(ctx, id);
}
