import { type DbExecutor, findPipelineNodesReferencing, updatePipelineNode } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import { FAMILIES, withoutOutputReference } from "@hookflow/pipeline";
import { toPipelineNode } from "./node-records.js";

/**
 * Removes every reference to `id` from the nodes that make one (their inputNodes, and outputs
 * such as a rate limiter's outputTransformIds), so no node is left pointing at nothing. Returns
 * the ids of the nodes changed. A config that would become invalid without the reference makes
 * the delete a 409 naming the node.
 */
export async function detachReferences(db: DbExecutor, id: string, now: Date): Promise<string[]> {
  const changed: string[] = [];
  for (const row of await findPipelineNodesReferencing(db, id)) {
    if (row.id === id) continue;
    const node = toPipelineNode(row);
    const config = FAMILIES[node.family].config.safeParse(
      withoutOutputReference(node.family, node.config, id),
    );
    if (!config.success) {
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
