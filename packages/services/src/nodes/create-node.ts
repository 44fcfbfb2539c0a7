import { insertPipelineNode, withGraphWriteLock } from "@hookflow/db";
import { newPrefixedId, ownerScopeOf } from "@hookflow/domain";
import {
  FAMILIES,
  type FamilyConfig,
  type FamilyKey,
  type PipelineNode,
  parseCreateNode,
} from "@hookflow/pipeline";
import { ownershipOf, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { checkLinkConsent, checkToolConsent } from "../flow-links/check-link-consent.js";
import { checkScheduledWorkflowCap } from "../schedules/scheduled-workflow-cap.js";
import { syncSchedulerAfterWrite } from "../schedules/sync-scheduler.js";
import { checkActionLinks } from "./check-action-links.js";
import { checkCredentialReferences } from "./check-credential-references.js";
import { checkForwardLimits } from "./check-forward-limits.js";
import { checkMailRecipients } from "./check-mail-recipients.js";
import { checkNodeCycle } from "./check-node-cycle.js";
import { checkNodeReferences, referencesOf } from "./check-node-references.js";
import { publishGraphChanged, toPipelineNode } from "./node-records.js";
import { forwardLimitsOf, type NodeWriteContext } from "./node-write-context.js";

export interface CreateNodeInput {
  family: FamilyKey;
  /** The request body: `name`, `inputNodes` and the family's config fields. */
  body: unknown;
}

/**
 * A new node of `family`, of the actor's acting owner. Every reference must name a visible
 * record of that owner, the node must not close a cycle nor break a forwarding limit, and its
 * recipient lists must keep to MAIL_MAX_RECIPIENTS (docs/decisions.md, "Node families and
 * canvas"). The checks and the insert run under the graph write lock of the node's scope.
 */
export async function createNode(
  ctx: NodeWriteContext,
  actor: Actor,
  { family: key, body }: CreateNodeInput,
): Promise<PipelineNode> {
  requireScope(actor, "canvas:write");
  const input = parseCreateNode(key, body);
  checkMailRecipients(key, input.config, ctx.config.mailMaxRecipients);
  const now = ctx.now();
  const node: PipelineNode = {
    id: newPrefixedId(FAMILIES[key].idPrefix, now.getTime()),
    family: key,
    ...ownershipOf(actor),
    ...input,
    createdAt: now,
    updatedAt: now,
  };
  const refs = referencesOf(key, input);
  const row = await withGraphWriteLock(ctx.db.db, ownerScopeOf(node), async (tx) => {
    if (key === "scheduledWorkflow") await checkScheduledWorkflowCap(tx, node);
    if (key === "flowLink") {
      await checkLinkConsent(tx, node, input.config as FamilyConfig<"flowLink">);
    }
    if (key === "aiNode") {
      await checkToolConsent(tx, node, input.config as FamilyConfig<"aiNode">);
    }
    await checkNodeReferences(tx, actor, node, refs);
    await checkCredentialReferences(tx, actor, node, input.config);
    await checkActionLinks(tx, node, refs);
    await checkNodeCycle(tx, node);
    if (refs.length > 0) await checkForwardLimits(tx, node, forwardLimitsOf(ctx));
    return insertPipelineNode(tx, { ...node, config: input.config });
  });
  await publishGraphChanged(ctx, [row.id]);
  if (key === "scheduledWorkflow") await syncSchedulerAfterWrite(ctx, row.id);
  return toPipelineNode(row);
}
