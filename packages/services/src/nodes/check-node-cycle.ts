import type { DbExecutor } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import { buildGraph, findCycle, type PipelineNode } from "@hookflow/pipeline";
import { collectDownstream } from "./collect-downstream.js";

/**
 * 400 naming the cycle when storing `written` would close one (docs/decisions.md, "Node families and canvas"): a path
 * from the node back to itself along inputs, router routes or rate-limiter outputs. The stored
 * graph is acyclic (every write is checked under the graph write lock), so a new cycle passes
 * through `written` and lies in the graph downstream of it, whoever owns those nodes.
 */
export async function checkNodeCycle(db: DbExecutor, written: PipelineNode): Promise<void> {
  const cycle = findCycle(buildGraph(await collectDownstream(db, [written])));
  if (!cycle) return;
  const path = [...cycle, cycle[0]].join(" -> ");
  throw new ValidationError(`inputNodes: The graph would contain a cycle: ${path}`);
}
