import type { InputNode } from "./families/common.js";
import type { FamilyConfig, FamilyKey } from "./families/registry.js";

/** A stored processing node of any family, as the pipeline and the API see it. */
export interface PipelineNode<F extends FamilyKey = FamilyKey> {
  id: string;
  family: F;
  name: string;
  ownerId: string;
  organizationId: string | null;
  inputNodes: InputNode[];
  config: FamilyConfig<F>;
  createdAt: Date;
  updatedAt: Date;
}

/** The API shape: config fields flattened beside the common ones, `id` and `_id` alike. */
export function toNodeResponse(node: PipelineNode): Record<string, unknown> {
  return {
    id: node.id,
    _id: node.id,
    name: node.name,
    ...node.config,
    inputNodes: node.inputNodes,
    ownerId: node.ownerId,
    organizationId: node.organizationId,
    createdAt: node.createdAt.toISOString(),
    updatedAt: node.updatedAt.toISOString(),
  };
}
