import type { InputNode } from "../families/common.js";
import { FAMILIES, type FamilyConfig, type FamilyKey } from "../families/registry.js";
import type { PipelineNode } from "../nodes.js";

const EPOCH = new Date("2030-01-01T00:00:00.000Z");

/** `webhook("wh_a")` -> an inputNodes entry. Test helper. */
export function fromWebhook(id: string): InputNode {
  return { nodeType: "webhook", nodeId: id };
}

/** An inputNodes entry for a processing node, its type from its family. Test helper. */
export function fromNode(node: PipelineNode): InputNode {
  return { nodeType: FAMILIES[node.family].nodeType, nodeId: node.id };
}

/** A stored node of `family` with its defaults applied. Test helper (also used by the API's tests). */
export function makeNode<F extends FamilyKey>(
  family: F,
  id: string,
  config: Partial<FamilyConfig<F>>,
  inputNodes: InputNode[] = [],
): PipelineNode<F> {
  const definition = FAMILIES[family];
  return {
    id,
    family,
    name: `${family} ${id}`,
    ownerId: "usr_test",
    organizationId: null,
    inputNodes,
    config: definition.config.parse({ ...definition.defaults, ...config }) as FamilyConfig<F>,
    createdAt: EPOCH,
    updatedAt: EPOCH,
  };
}
