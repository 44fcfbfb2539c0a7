import { type DbHandle, findWebhookGraphNodes, type GraphNodeRow } from "@hookflow/db";
import {
  buildGraph,
  type FamilyKey,
  type PipelineGraph,
  type PipelineNode,
  reachableFrom,
} from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/** A graph row (the worker's read of a webhook's graph) as a pipeline node. */
function graphNodeOf(row: GraphNodeRow): PipelineNode {
  return toPipelineNode(row);
}

/**
 * The graph of `webhookId` as the worker reads it now (nodes its owner can see, reachable along
 * flow edges, in creation order), as pipeline nodes.
 */
export async function liveGraphNodes(db: DbHandle, webhookId: string): Promise<PipelineNode[]> {
  return (await findWebhookGraphNodes(db, webhookId)).map(graphNodeOf);
}

/** A webhook's graph as the worker would run it now, with the order events pass its nodes. */
interface LiveWebhookGraph {
  graph: PipelineGraph;
  /** `reachableFrom(graph, webhookId)`: the processing nodes an event passes, in graph order. */
  order: string[];
}

export async function liveWebhookGraph(db: DbHandle, webhookId: string): Promise<LiveWebhookGraph> {
  const graph = buildGraph(await liveGraphNodes(db, webhookId));
  return { graph, order: reachableFrom(graph, webhookId) };
}

/** The nodes of `family` an event of the graph passes through, in graph order. */
export function reachableNodesOf<F extends FamilyKey>(
  live: LiveWebhookGraph,
  family: F,
): PipelineNode<F>[] {
  return live.order.flatMap((id) => {
    const node = live.graph.nodes.get(id);
    return node?.family === family ? [node as PipelineNode<F>] : [];
  });
}
