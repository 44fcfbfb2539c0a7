import { type DbExecutor, findPipelineNodesByIds, findPipelineNodesFedBy } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import { edgesOf, type PipelineNode } from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/** Beyond this many vertices downstream of one write, the walk refuses rather than go on. */
const MAX_GRAPH_WALK = 5000;

/** Where a node's own declared edges lead (its outputs), not where its inputs come from. */
function targetsOf(node: PipelineNode): string[] {
  return edgesOf(node)
    .filter((edge) => edge.from === node.id)
    .map((edge) => edge.to);
}

/**
 * `seeds` and every node downstream of them or of the vertices in `from`, across all owners: the
 * nodes that name a reached vertex in their inputNodes, the nodes a reached node's outputs name,
 * and so on. A seed wins over its stored row (a node about to be written is seen as it will be).
 */
export async function collectDownstream(
  db: DbExecutor,
  seeds: readonly PipelineNode[],
  from: readonly string[] = [],
): Promise<PipelineNode[]> {
  const nodes = new Map<string, PipelineNode>(seeds.map((node) => [node.id, node]));
  const visited = new Set<string>();
  let frontier = [...from, ...seeds.flatMap((node) => [node.id, ...targetsOf(node)])];
  while (frontier.length > 0) {
    const ids = [...new Set(frontier.filter((id) => !visited.has(id)))];
    if (ids.length === 0) break;
    for (const id of ids) visited.add(id);
    if (visited.size > MAX_GRAPH_WALK) {
      throw new ValidationError(
        `The graph reached from here has more than ${MAX_GRAPH_WALK} vertices`,
      );
    }
    const [consumers, targets] = await Promise.all([
      findPipelineNodesFedBy(db, ids),
      findPipelineNodesByIds(
        db,
        ids.filter((id) => !nodes.has(id)),
      ),
    ]);
    frontier = [];
    for (const row of [...consumers, ...targets]) {
      if (nodes.has(row.id)) continue;
      const node = toPipelineNode(row);
      nodes.set(node.id, node);
      frontier.push(node.id, ...targetsOf(node));
    }
  }
  return [...nodes.values()];
}
