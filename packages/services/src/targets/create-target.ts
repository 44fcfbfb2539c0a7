import { insertAdditionalTarget, withGraphWriteLock } from "@hookflow/db";
import { newPrefixedId, ownerScopeOf, storePayloadFilter } from "@hookflow/domain";
import { ownershipOf, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { checkPlanRetries } from "./check-plan-retries.js";
import { checkTargetInputs } from "./check-target-inputs.js";
import { publishTargetChanged } from "./publish-target-changed.js";
import type { AdditionalTarget, TargetFields } from "./target-records.js";

/**
 * A new additional target of the actor's acting owner: its webhooks must be visible and of that
 * owner (400), its maxRetries within the owner's plan (403). Checked and stored under the graph
 * write lock of the owner's scope (docs/decisions.md, "Additional targets").
 */
export async function createTarget(
  ctx: ServiceContext,
  actor: Actor,
  input: TargetFields,
): Promise<AdditionalTarget> {
  requireScope(actor, "webhooks:write");
  const now = ctx.now();
  const owner = ownershipOf(actor);
  const id = newPrefixedId("tgt", now.getTime());
  const row = await withGraphWriteLock(ctx.db.db, ownerScopeOf(owner), async (tx) => {
    await checkPlanRetries(tx, owner, input.maxRetries);
    await checkTargetInputs(tx, actor, { id, ...owner }, input.inputNodes);
    return insertAdditionalTarget(tx, {
      id,
      ...owner,
      ...input,
      filters: input.filters.map(storePayloadFilter),
      createdAt: now,
      updatedAt: now,
    });
  });
  await publishTargetChanged(ctx, row.id);
  return row;
}
