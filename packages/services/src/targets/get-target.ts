import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type AdditionalTarget, loadVisibleTarget } from "./target-records.js";

/** A target the actor may see: 404 when absent, 403 when not theirs. */
export async function getTarget(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { id }: { id: string },
): Promise<AdditionalTarget> {
  requireScope(actor, "webhooks:read");
  return loadVisibleTarget(ctx, actor, id);
}
