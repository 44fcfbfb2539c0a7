import {
  buildGraph,
  canonicalNodeType,
  FAMILY_KEYS,
  type FamilyConfig,
  type FamilyKey,
  type PipelineGraph,
  type PipelineNode,
} from "@hookflow/pipeline";
import { z } from "zod";

/**
 * The graph a canvas snapshot froze (docs/decisions.md, "Node families and canvas"), as time
 * travel reads it: the webhooks and node records it referenced, copied as they were, webhooks
 * keeping only what a dry run needs. A record its viewer may not read is a placeholder
 * (`hidden`). The api's canvas-snapshot routes write this shape and document it; this is the
 * reading side only.
 */
const FrozenWebhook = z.object({
  id: z.string(),
  name: z.string(),
  targetUrl: z.string(),
  isActive: z.boolean(),
  payloadFilters: z.array(
    z.object({ field: z.string(), operator: z.string(), value: z.string().optional() }),
  ),
  ownerId: z.string().optional(),
  organizationId: z.string().nullable().optional(),
});
export type FrozenWebhook = z.infer<typeof FrozenWebhook>;

const HiddenWebhook = z.object({ id: z.string(), hidden: z.literal(true) });
const HiddenNode = z.object({ id: z.string(), family: z.string(), hidden: z.literal(true) });

const FrozenNode = z.object({
  id: z.string(),
  family: z.string(),
  name: z.string(),
  ownerId: z.string(),
  organizationId: z.string().nullable(),
  inputNodes: z.array(z.object({ nodeType: z.string(), nodeId: z.string() })),
  config: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
type FrozenNode = z.infer<typeof FrozenNode>;

const FrozenGraph = z.object({
  version: z.literal(1),
  frozenAt: z.string(),
  webhooks: z.array(z.union([FrozenWebhook, HiddenWebhook])),
  nodes: z.array(z.union([FrozenNode, HiddenNode])),
});

/** Whether an entry of a frozen graph is a placeholder. */
function isHidden<T extends object>(entry: T | { hidden: true }): entry is { hidden: true } {
  return "hidden" in entry && entry.hidden === true;
}

function thawNode(node: FrozenNode): PipelineNode {
  const family = FAMILY_KEYS.find((key) => key === node.family);
  if (!family) throw new Error(`frozen node ${node.id} has an unknown family: ${node.family}`);
  return {
    id: node.id,
    family,
    name: node.name,
    ownerId: node.ownerId,
    organizationId: node.organizationId,
    inputNodes: node.inputNodes.flatMap((input) => {
      const nodeType = canonicalNodeType(input.nodeType);
      return nodeType ? [{ nodeType, nodeId: input.nodeId }] : [];
    }),
    config: node.config as FamilyConfig<FamilyKey>,
    createdAt: new Date(node.createdAt),
    updatedAt: new Date(node.updatedAt),
  };
}

/**
 * The engine's graph of a snapshot's stored jsonb (written by the snapshot routes, so a mismatch
 * is a bug), and its webhooks by id (placeholders left out: a node without its config cannot
 * run, and a hidden webhook has nothing to show).
 */
export function thawFrozenGraph(stored: unknown): {
  graph: PipelineGraph;
  webhooks: ReadonlyMap<string, FrozenWebhook>;
} {
  const frozen = FrozenGraph.parse(stored);
  const nodes = frozen.nodes.flatMap((node) => (isHidden(node) ? [] : [thawNode(node)]));
  const webhooks = frozen.webhooks.flatMap((webhook) => (isHidden(webhook) ? [] : [webhook]));
  return {
    graph: buildGraph(nodes),
    webhooks: new Map(webhooks.map((webhook) => [webhook.id, webhook])),
  };
}
