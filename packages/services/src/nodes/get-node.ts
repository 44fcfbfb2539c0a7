import type { FamilyKey, PipelineNode } from "@hookflow/pipeline";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleNode } from "./node-records.js";

export interface GetNodeInput {
  family: FamilyKey;
  id: string;
}

/** A node of `family` the actor may see: 404 when there is none, 403 when it is another's. */
export async function getNode(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { family, id }: GetNodeInput,
): Promise<PipelineNode> {
  requireScope(actor, "canvas:read");
  return loadVisibleNode(ctx, actor, family, id);
}
