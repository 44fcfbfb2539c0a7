import type { GraphWebhookRow } from "@hookflow/db";
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
 * The graph a canvas showed when it was saved: the webhooks and node records it referenced and
 * everything downstream of them, copied as they were. Time travel runs events through this copy,
 * so later edits of the live nodes do not change what a snapshot answers. Webhooks keep only what
 * a dry run needs (never a secret), and their owner columns (absent in snapshots frozen before
 * they were kept). A record its viewer may not read is shown as a placeholder (`hidden`): its id
 * and, for a node, its family, nothing else.
 */
export const FrozenWebhook = z.object({
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

// The `id`s name the schemas' components in the api's OpenAPI document.
const HiddenWebhook = z.object({ id: z.string(), hidden: z.literal(true) }).meta({
  id: "HiddenFrozenWebhook",
  description: "A webhook of the frozen graph the viewer may not read: only its id",
});

const HiddenNode = z.object({ id: z.string(), family: z.string(), hidden: z.literal(true) }).meta({
  id: "HiddenFrozenNode",
  description: "A node of the frozen graph the viewer may not read: its id and family only",
});

export const FrozenNode = z.object({
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
export type FrozenNode = z.infer<typeof FrozenNode>;

export const FrozenGraph = z
  .object({
    version: z.literal(1),
    frozenAt: z.string(),
    webhooks: z.array(z.union([FrozenWebhook, HiddenWebhook])),
    nodes: z.array(z.union([FrozenNode, HiddenNode])),
  })
  .meta({
    id: "FrozenGraph",
    description:
      "The webhooks and nodes the canvas showed, frozen when nodes were last saved. Records " +
      "the viewer may not read (now) are placeholders: `{id, hidden: true}` (nodes also keep " +
      "their family), without name, config, inputs, target URL or filters",
  });
export type FrozenGraph = z.infer<typeof FrozenGraph>;

export function freezeWebhook(row: GraphWebhookRow): FrozenWebhook {
  return {
    id: row.id,
    name: row.name,
    targetUrl: row.targetUrl,
    isActive: row.isActive,
    payloadFilters: row.payloadFilters.map((filter) => ({
      field: filter.field,
      operator: filter.operator,
      ...(filter.value === undefined ? {} : { value: filter.value }),
    })),
    ownerId: row.ownerId,
    organizationId: row.organizationId,
  };
}

/** Whether an entry of a frozen graph is a placeholder. */
export function isHidden<T extends object>(entry: T | { hidden: true }): entry is { hidden: true } {
  return "hidden" in entry && entry.hidden === true;
}

export function freezeNode(node: PipelineNode): FrozenNode {
  return {
    id: node.id,
    family: node.family,
    name: node.name,
    ownerId: node.ownerId,
    organizationId: node.organizationId,
    inputNodes: node.inputNodes,
    config: node.config as Record<string, unknown>,
    createdAt: node.createdAt.toISOString(),
    updatedAt: node.updatedAt.toISOString(),
  };
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

/** The stored jsonb as a frozen graph (written by this module, so a mismatch is a bug). */
export function parseFrozenGraph(value: unknown): FrozenGraph {
  return FrozenGraph.parse(value);
}

/**
 * The engine's graph of a frozen copy, and its webhooks by id (placeholders left out: a node
 * without its config cannot run, and a hidden webhook has nothing to show).
 */
export function thawGraph(frozen: FrozenGraph): {
  graph: PipelineGraph;
  webhooks: ReadonlyMap<string, FrozenWebhook>;
} {
  const nodes = frozen.nodes.flatMap((node) => (isHidden(node) ? [] : [thawNode(node)]));
  const webhooks = frozen.webhooks.flatMap((webhook) => (isHidden(webhook) ? [] : [webhook]));
  return {
    graph: buildGraph(nodes),
    webhooks: new Map(webhooks.map((webhook) => [webhook.id, webhook])),
  };
}
