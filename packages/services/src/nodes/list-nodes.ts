import { listPipelineNodesPage } from "@hookflow/db";
import type { FamilyKey, PipelineNode } from "@hookflow/pipeline";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { actingScope, type PageInput } from "../list-scope.js";
import { toPipelineNode } from "./node-records.js";

export interface ListNodesInput extends PageInput {
  family: FamilyKey;
}

/** One page of the acting context's nodes of `family`, newest first, and their total. */
export async function listNodes(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  { family, page, limit }: ListNodesInput,
): Promise<{ nodes: PipelineNode[]; total: number }> {
  requireScope(actor, "canvas:read");
  const { rows, total } = await listPipelineNodesPage(ctx.db.db, {
    family,
    scope: actingScope(actor),
    offset: (page - 1) * limit,
    limit,
  });
  return { nodes: rows.map(toPipelineNode), total };
}
