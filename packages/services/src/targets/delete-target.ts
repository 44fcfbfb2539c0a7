import { deleteAdditionalTarget } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { publishTargetChanged } from "./publish-target-changed.js";
import { loadVisibleTarget, targetGone } from "./target-records.js";

/**
 * Deletes a visible target and its links to webhooks; deliveries to it still queued end without
 * a request, its recorded attempts stay with their events.
 */
export async function deleteTarget(
  ctx: ServiceContext,
  actor: Actor,
  { id }: { id: string },
): Promise<void> {
  requireScope(actor, "webhooks:write");
  await loadVisibleTarget(ctx, actor, id);
  if (!(await deleteAdditionalTarget(ctx.db.db, id))) throw targetGone();
  await publishTargetChanged(ctx, id);
}
