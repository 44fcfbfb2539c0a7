import { lockPipelineNode, updatePipelineNode, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf } from "@hookflow/domain";
import {
  type FamilyConfig,
  type FamilyKey,
  type PipelineNode,
  parseUpdateNode,
} from "@hookflow/pipeline";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { checkLinkConsent, checkToolConsent } from "../flow-links/check-link-consent.js";
import { checkStillFeeds } from "../schedules/feeding-workflows.js";
import { syncSchedulerAfterWrite } from "../schedules/sync-scheduler.js";
import { checkActionLinks } from "./check-action-links.js";
import { checkCredentialReferences } from "./check-credential-references.js";
import { checkForwardLimits } from "./check-forward-limits.js";
import { checkMailRecipients } from "./check-mail-recipients.js";
import { checkNodeCycle } from "./check-node-cycle.js";
import { addedReferences, checkNodeReferences, referencesOf } from "./check-node-references.js";
import {
  inputOfNode,
  loadVisibleNode,
  nodeGone,
  publishGraphChanged,
  toPipelineNode,
} from "./node-records.js";
import { forwardLimitsOf, type NodeWriteContext } from "./node-write-context.js";

export interface UpdateNodeInput {
  family: FamilyKey;
  id: string;
  /** The PATCH body: only the fields given change; lists are replaced whole. */
  body: unknown;
}

/**
 * Applies a PATCH to a visible node of `family`: the merged record is validated as a create
 * would be, and only the references the update adds are checked (existence, owner, cycle,
 * forwarding limits). Runs under the graph write lock of the node's scope.
 */
export async function updateNode(
  ctx: NodeWriteContext,
  actor: Actor,
  { family: key, id, body }: UpdateNodeInput,
): Promise<PipelineNode> {
  requireScope(actor, "canvas:write");
  const visible = await loadVisibleNode(ctx, actor, key, id);
  const row = await withGraphWriteLock(ctx.db.db, ownerScopeOf(visible), async (tx) => {
    const locked = await lockPipelineNode(tx, id);
    if (!locked || locked.family !== key) throw nodeGone(key);
    const current = toPipelineNode(locked);
    const input = parseUpdateNode(key, inputOfNode(current), body);
    checkMailRecipients(key, input.config, ctx.config.mailMaxRecipients);
    const added = addedReferences(
      referencesOf(key, inputOfNode(current)),
      referencesOf(key, input),
    );
    if (key === "scheduledWorkflow") await checkStillFeeds(tx, id, input.config);
    if (key === "flowLink") {
      await checkLinkConsent(tx, current, input.config as FamilyConfig<"flowLink">);
    }
    if (key === "aiNode") {
      await checkToolConsent(tx, current, input.config as FamilyConfig<"aiNode">);
    }
    const now = ctx.now();
    const next: PipelineNode = { ...current, ...input, updatedAt: now };
    await checkCredentialReferences(tx, actor, next, input.config);
    if (added.length > 0) {
      await checkNodeReferences(tx, actor, current, added);
      await checkActionLinks(tx, next, added);
      await checkNodeCycle(tx, next);
      await checkForwardLimits(tx, next, forwardLimitsOf(ctx));
    }
    const updated = await updatePipelineNode(tx, id, {
      name: input.name,
      inputNodes: input.inputNodes,
      config: input.config,
      updatedAt: now,
    });
    if (!updated) throw nodeGone(key);
    return updated;
  });
  await publishGraphChanged(ctx, [id]);
  if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(ctx, id);
  return toPipelineNode(row);
}
