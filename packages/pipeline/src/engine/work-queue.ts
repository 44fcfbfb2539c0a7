import type { PathState } from "./types.js";

/** A path waiting to visit a node. */
export interface Work {
  nodeId: string;
  path: PathState;
}

/**
 * The paths of one run waiting for their next node, taken in graph order (the node's rank in the
 * run's topological order; among equal ranks, first come first served), so a node runs only
 * after every node before it on any path.
 */
export class WorkQueue {
  private readonly items: Array<Work & { rank: number }> = [];

  constructor(private readonly rank: ReadonlyMap<string, number>) {}

  get size(): number {
    return this.items.length;
  }

  push(nodeId: string, path: PathState): void {
    const work = { nodeId, path, rank: this.rank.get(nodeId) ?? 0 };
    let at = this.items.length;
    while (at > 0 && (this.items[at - 1] as { rank: number }).rank > work.rank) at -= 1;
    this.items.splice(at, 0, work);
  }

  shift(): Work | undefined {
    return this.items.shift();
  }
}
