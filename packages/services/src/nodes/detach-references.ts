import {
  type DbExecutor,
  deletePipelineNode,
  findPipelineNodesReferencing,
  updatePipelineNode,
} from "@hookflow/db";
import { ConflictError, type OwnerColumns, sameOwnerScope } from "@hookflow/domain";
import { FAMILIES, withoutOutputReference } from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/**
 * Removes every reference to `deleted` from the nodes that make one (their inputNodes, and
 * outputs such as a rate limiter's outputTransformIds), so no node is left pointing at nothing.
 * Returns the ids of the nodes changed. A config of the deleted record's own owner scope that
 * would become invalid without the reference makes the delete a 409 naming the node. A node of
 * another scope (stored before graphs were kept to one scope) never blocks the delete: the
 * deleting user may not see or fix it, and it could not run with the record anyway (its graph
 * skips other scopes, and forwards to them are blocked), so it keeps its stale reference.
 */
export async function detachReferences(
  db: DbExecutor,
  deleted: OwnerColumns & { id: string },
  now: Date,
): Promise<string[]> {
  const { id } = deleted;
  const changed: string[] = [];
  for (const row of await findPipelineNodesReferencing(db, id)) {
    if (row.id === id) continue;
    const node = toPipelineNode(row);
    if (node.family === "flowLink" && sameOwnerScope(node, deleted)) {
      // A link is its source and its webhook: it goes with either (docs/decisions.md, Flow links).
      await deletePipelineNode(db, node.id);
      changed.push(node.id);
      continue;
    }
    const config = FAMILIES[node.family].config.safeParse(
      withoutOutputReference(node.family, node.config, id),
    );
    if (!config.success) {
      if (!sameOwnerScope(node, deleted)) continue;
      throw new ConflictError(`${node.id} (${node.name}) cannot do without ${id}; update it first`);
    }
    const inputNodes = node.inputNodes.filter((input) => input.nodeId !== id);
    const untouched =
      inputNodes.length === node.inputNodes.length &&
      JSON.stringify(config.data) === JSON.stringify(node.config);
    // The id only appeared inside a value (a filter comparing against it): not a reference.
    if (untouched) continue;
    await updatePipelineNode(db, node.id, {
      name: node.name,
      inputNodes,
      config: config.data as Record<string, unknown>,
      updatedAt: now,
    });
    changed.push(node.id);
  }
  return changed;
}
