import { type DbExecutor, type DbHandle, findGraphWebhooks, lockGraphScopes } from "@hookflow/db";
import { ownerScopeOf, ValidationError } from "@hookflow/domain";
import {
  buildGraph,
  canonicalNodeType,
  familyOfNodeType,
  type PipelineNode,
} from "@hookflow/pipeline";
import type { Actor } from "../actor.js";
import { checkReferencedRecords, type RecordReference } from "../nodes/check-node-references.js";
import { liveGraphNodes } from "../nodes/live-graph.js";
import { toPipelineNode } from "../nodes/node-records.js";
import type { CanvasNode } from "./canvas-layout.js";
import { type FrozenGraph, freezeNode, freezeWebhook } from "./frozen-graph.js";
import { readableBy, redactFrozenGraph } from "./redact-snapshot.js";

/**
 * The records a canvas names: `data.webhookId` and `data.nodeId` of its nodes. A `webhook` node
 * must name its webhook and a node of a known family its node, of that family; other node types
 * (notes, groups) are layout only, and a node they name may be of any family. Canvas node ids
 * are unique.
 */
function namedRecords(nodes: readonly CanvasNode[]): {
  webhooks: RecordReference[];
  nodes: RecordReference[];
} {
  const webhooks: RecordReference[] = [];
  const records: RecordReference[] = [];
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
    if (webhookId !== undefined) {
      webhooks.push({ id: webhookId, field: `nodes.${i}.data.webhookId`, type: "webhook" });
    }
    if (nodeId !== undefined) {
      const family = type ? familyOfNodeType(type) : undefined;
      records.push({
        id: nodeId,
        field: `nodes.${i}.data.nodeId`,
        type: type && family ? type : "node",
        label: "node",
      });
    }
  });
  return { webhooks, nodes: records };
}

/**
 * Checks the records the canvas names (each must exist and be visible to the caller, else 400
 * naming the field) and freezes the graph it shows, as it is now: the named nodes, the graph of
 * each named webhook as the worker reads it (nodes of its owner scope, reachable along flow
 * edges), and every webhook that graph touches. Nodes keep creation order, the engine's
 * tie-break. `tx` takes the graph write lock of every owner scope named, so no graph write
 * there interleaves with the reads (a webhook's graph holds records of its own scope only).
 * What the caller may not read (a forward target of another owner, say) is frozen as a
 * placeholder.
 */
export async function freezeCanvas(
  tx: DbExecutor,
  db: DbHandle,
  actor: Actor,
  canvas: readonly CanvasNode[],
  now: Date,
): Promise<FrozenGraph> {
  const named = namedRecords(canvas);
  const records = await checkReferencedRecords(tx, actor, null, [
    ...named.webhooks,
    ...named.nodes,
  ]);
  await lockGraphScopes(
    tx,
    [...records.webhooks.values(), ...records.nodes.values()].map(ownerScopeOf),
  );

  const nodes = new Map<string, PipelineNode>(
    [...records.nodes].map(([id, row]) => [id, toPipelineNode(row)]),
  );
  const webhookIds = [...new Set(named.webhooks.map((ref) => ref.id))];
  for (const webhookId of webhookIds) {
    for (const node of await liveGraphNodes(db, webhookId)) nodes.set(node.id, node);
  }
  const ordered = [...nodes.values()].sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id),
  );
  const graph = buildGraph(ordered);
  // The named webhooks first, then every other webhook the graph touches.
  const touched = graph.vertices.filter((id) => !graph.nodes.has(id) && !webhookIds.includes(id));
  const rank = new Map([...webhookIds, ...touched].map((id, i) => [id, i]));
  const webhooks = (await findGraphWebhooks(tx, [...rank.keys()])).sort(
    (a, b) => (rank.get(a.id) ?? 0) - (rank.get(b.id) ?? 0),
  );
  const frozen: FrozenGraph = {
    version: 1,
    frozenAt: now.toISOString(),
    webhooks: webhooks.map(freezeWebhook),
    nodes: ordered.map(freezeNode),
  };
  return redactFrozenGraph(frozen, readableBy(actor));
}
