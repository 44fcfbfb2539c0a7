import {
  type DbExecutor,
  type DbHandle,
  findGraphWebhooks,
  findPipelineNodesByIds,
  type GraphWebhookRow,
} from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import {
  buildGraph,
  canonicalNodeType,
  familyOfNodeType,
  type NodeType,
  type PipelineNode,
} from "@hookflow/pipeline";
import { canSee } from "../../auth/access.js";
import type { Actor } from "../../auth/actor.js";
import { liveGraphNodes } from "../nodes/live-graph.js";
import { toPipelineNode } from "../nodes/node-records.js";
import { type FrozenGraph, freezeNode, freezeWebhook } from "./frozen-graph.js";
import type { CanvasEdge, CanvasNode } from "./snapshot-input.js";

interface Named {
  id: string;
  field: string;
  /** The canonical node type the canvas node claims, when its type is a known one. */
  claimedType?: NodeType | undefined;
}

/**
 * The records a canvas names: `data.webhookId` and `data.nodeId` of its nodes. A `webhook` node
 * must name its webhook and a node of a known family its node; other node types (notes, groups)
 * are layout only. Canvas node ids are unique.
 */
function namedRecords(nodes: readonly CanvasNode[]): { webhooks: Named[]; nodes: Named[] } {
  const webhooks: Named[] = [];
  const records: Named[] = [];
  const seen = new Set<string>();
  nodes.forEach((node, i) => {
    if (seen.has(node.id)) throw new ValidationError(`nodes.${i}.id: Duplicate canvas node id`);
    seen.add(node.id);
    const type = canonicalNodeType(node.type);
    const { webhookId, nodeId } = node.data;
    if (type === "webhook" && webhookId === undefined) {
      throw new ValidationError(`nodes.${i}.data.webhookId: Required for a webhook node`);
    }
    if (type && familyOfNodeType(type) && nodeId === undefined) {
      throw new ValidationError(`nodes.${i}.data.nodeId: Required for a ${node.type} node`);
    }
    if (webhookId !== undefined)
      webhooks.push({ id: webhookId, field: `nodes.${i}.data.webhookId` });
    if (nodeId !== undefined) {
      records.push({ id: nodeId, field: `nodes.${i}.data.nodeId`, claimedType: type });
    }
  });
  return { webhooks, nodes: records };
}

/** Every edge joins two nodes of the canvas. */
export function checkCanvasEdges(nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): void {
  const ids = new Set(nodes.map((node) => node.id));
  edges.forEach((edge, i) => {
    for (const end of ["source", "target"] as const) {
      if (!ids.has(edge[end])) {
        throw new ValidationError(`edges.${i}.${end}: Unknown canvas node ${edge[end]}`);
      }
    }
  });
}

/**
 * Checks the records the canvas names (each must exist and be visible to the caller, else 400
 * naming the field) and freezes the graph it shows, as it is now: the named nodes, the graph of
 * each named webhook as the worker reads it (nodes its owner can see, reachable along flow
 * edges), and every webhook that graph touches. Nodes keep creation order, the engine's
 * tie-break. `tx` holds the graph write lock, so no graph write interleaves with the reads.
 */
export async function freezeCanvas(
  tx: DbExecutor,
  handle: DbHandle,
  actor: Actor,
  canvas: readonly CanvasNode[],
  now: Date,
): Promise<FrozenGraph> {
  const named = namedRecords(canvas);
  const [webhookRows, nodeRows] = await Promise.all([
    findGraphWebhooks(
      tx,
      named.webhooks.map((w) => w.id),
    ),
    findPipelineNodesByIds(
      tx,
      named.nodes.map((n) => n.id),
    ),
  ]);
  const webhookById = new Map(webhookRows.map((row) => [row.id, row]));
  const nodeById = new Map(nodeRows.map((row) => [row.id, row]));
  for (const ref of named.webhooks) {
    const row = webhookById.get(ref.id);
    if (!row || !canSee(actor, row)) {
      throw new ValidationError(`${ref.field}: Unknown webhook ${ref.id}`);
    }
  }
  for (const ref of named.nodes) {
    const row = nodeById.get(ref.id);
    const family = ref.claimedType ? familyOfNodeType(ref.claimedType) : undefined;
    if (!row || !canSee(actor, row) || (family !== undefined && row.family !== family)) {
      throw new ValidationError(`${ref.field}: Unknown node ${ref.id}`);
    }
  }

  const nodes = new Map<string, PipelineNode>(nodeRows.map((row) => [row.id, toPipelineNode(row)]));
  for (const webhook of webhookRows) {
    for (const node of await liveGraphNodes(handle, webhook.id)) nodes.set(node.id, node);
  }
  const ordered = [...nodes.values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  const graph = buildGraph(ordered);
  const touched = graph.vertices.filter((id) => !graph.nodes.has(id) && !webhookById.has(id));
  const webhooks: GraphWebhookRow[] = [...webhookRows, ...(await findGraphWebhooks(tx, touched))];
  return {
    version: 1,
    frozenAt: now.toISOString(),
    webhooks: webhooks.map(freezeWebhook),
    nodes: ordered.map(freezeNode),
  };
}
