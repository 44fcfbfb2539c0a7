import { type DbHandle, findWebhookGraphNodes, type GraphNodeRow } from "@hookflow/db";
import {
  buildGraph,
  canonicalNodeType,
  FAMILY_KEYS,
  type FamilyConfig,
  type FamilyKey,
  type PipelineGraph,
  type PipelineNode,
  reachableFrom,
} from "@hookflow/pipeline";

/** A graph row (the worker's read of a webhook's graph) as a pipeline node. */
function graphNodeOf(row: GraphNodeRow): PipelineNode {
  const family = FAMILY_KEYS.find((key) => key === row.family);
  if (!family) throw new Error(`pipeline node ${row.id} has an unknown family: ${row.family}`);
  return {
    id: row.id,
    family,
    name: row.name,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    inputNodes: row.inputNodes.map((input) => {
      const nodeType = canonicalNodeType(input.nodeType);
      if (!nodeType) throw new Error(`pipeline node ${row.id} has an unknown input node type`);
      return { nodeType, nodeId: input.nodeId };
    }),
    // The config was validated by its family on write.
    config: row.config as FamilyConfig<FamilyKey>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A webhook's graph as the worker would run it now, with the order events pass its nodes. */
interface LiveWebhookGraph {
  graph: PipelineGraph;
  /** `reachableFrom(graph, webhookId)`: the processing nodes an event passes, in graph order. */
  order: string[];
}

/**
 * The graph of `webhookId` as the worker reads it now (nodes its owner can see, reachable along
 * flow edges, in creation order).
 */
export async function liveWebhookGraph(db: DbHandle, webhookId: string): Promise<LiveWebhookGraph> {
  const graph = buildGraph((await findWebhookGraphNodes(db, webhookId)).map(graphNodeOf));
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
