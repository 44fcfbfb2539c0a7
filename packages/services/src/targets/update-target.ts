import { updateAdditionalTarget, withGraphWriteLock } from "@hookflow/db";
import { ownerScopeOf, storePayloadFilter } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { checkPlanRetries } from "./check-plan-retries.js";
import { checkTargetInputs } from "./check-target-inputs.js";
import { publishTargetChanged } from "./publish-target-changed.js";
import {
  type AdditionalTarget,
  loadVisibleTarget,
  type TargetFields,
  targetGone,
} from "./target-records.js";

export interface UpdateTargetInput {
  id: string;
  /** Only the fields given change; inputNodes and filters are replaced whole. */
  patch: Partial<TargetFields>;
}

/** The stored target with the PATCH applied (lists replaced whole). */
function merged(current: AdditionalTarget, body: Partial<TargetFields>, now: Date) {
  return {
    name: body.name ?? current.name,
    url: body.url ?? current.url,
    isActive: body.isActive ?? current.isActive,
    maxRetries: body.maxRetries ?? current.maxRetries,
    inputNodes: body.inputNodes ?? current.inputNodes,
    filters: body.filters ? body.filters.map(storePayloadFilter) : current.filters,
    payloadTransform:
      body.payloadTransform === undefined ? current.payloadTransform : body.payloadTransform,
    notifyPrimaryOnFailure: body.notifyPrimaryOnFailure ?? current.notifyPrimaryOnFailure,
    updatedAt: now,
  };
}

/**
 * Applies a PATCH to a visible target. Webhooks it adds to inputNodes are checked as on create
 * (400); a maxRetries given above the owner's plan limit is 403.
 */
export async function updateTarget(
  ctx: ServiceContext,
  actor: Actor,
  { id, patch: body }: UpdateTargetInput,
): Promise<AdditionalTarget> {
  requireScope(actor, "webhooks:write");
  const current = await loadVisibleTarget(ctx, actor, id);
  const row = await withGraphWriteLock(ctx.db.db, ownerScopeOf(current), async (tx) => {
    const next = merged(current, body, ctx.now());
    if (body.maxRetries !== undefined) await checkPlanRetries(tx, current, body.maxRetries);
    if (body.inputNodes !== undefined) {
      // Only the links the update adds are checked; the ones it keeps stay as they were.
      const linked = new Set(current.inputNodes.map((input) => input.nodeId));
      await checkTargetInputs(tx, actor, current, next.inputNodes, linked);
    }
    const updated = await updateAdditionalTarget(tx, id, next);
    if (!updated) throw targetGone();
    return updated;
  });
  await publishTargetChanged(ctx, id);
  return row;
}
