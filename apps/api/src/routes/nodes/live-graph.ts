import { type DbHandle, findWebhookGraphNodes, type GraphNodeRow } from "@hookflow/db";
import { buildGraph, type PipelineNode, reachableFrom } from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/** A graph row (the worker's read of a webhook's graph) as a pipeline node. */
export function graphNodeOf(row: GraphNodeRow): PipelineNode {
  return toPipelineNode(row);
}

/**
 * The graph of `webhookId` as the worker reads it now (nodes its owner can see, reachable along
 * flow edges, in creation order), as pipeline nodes.
 */
export async function liveGraphNodes(db: DbHandle, webhookId: string): Promise<PipelineNode[]> {
  return (await findWebhookGraphNodes(db, webhookId)).map(graphNodeOf);
}

/** The processing nodes an event of `webhookId` passes through now, in graph order. */
export async function nodesReachableFrom(db: DbHandle, webhookId: string): Promise<PipelineNode[]> {
  const graph = buildGraph(await liveGraphNodes(db, webhookId));
  return reachableFrom(graph, webhookId).flatMap((id) => {
    const node = graph.nodes.get(id);
    return node ? [node] : [];
  });
}
