import type { PipelineGraph } from "./build-graph.js";

const WHITE = 0;
const GREY = 1;
const BLACK = 2;

/**
 * A cycle of the graph over every edge, forward edges included (W -> router -> W forwards an
 * event into itself forever), as the vertex ids along it (`[a, b, c]` for a -> b -> c -> a), or
 * undefined when the graph is acyclic. Iterative, so deep graphs cannot overflow the stack.
 */
export function findCycle(graph: PipelineGraph): string[] | undefined {
  const color = new Map<string, number>();
  const parent = new Map<string, string>();
  for (const root of graph.vertices) {
    if ((color.get(root) ?? WHITE) !== WHITE) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    color.set(root, GREY);
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; next: number };
      const edges = graph.outgoing.get(top.id) ?? [];
      if (top.next >= edges.length) {
        color.set(top.id, BLACK);
        stack.pop();
        continue;
      }
      const edge = edges[top.next] as { to: string };
      top.next += 1;
      const state = color.get(edge.to) ?? WHITE;
      if (state === GREY) {
        const cycle = [edge.to];
        for (let at = top.id; at !== edge.to; at = parent.get(at) as string) cycle.splice(1, 0, at);
        return cycle;
      }
      if (state === WHITE) {
        color.set(edge.to, GREY);
        parent.set(edge.to, top.id);
        stack.push({ id: edge.to, next: 0 });
      }
    }
  }
  return undefined;
}

/**
 * The processing nodes an event of `webhookId` passes through: every node reachable from the
 * webhook along flow edges (forward edges start another webhook's pipeline, so they are not
 * followed), in graph order: topological, ties broken by the order the nodes were given.
 * Nodes on a cycle are left out (cycles are rejected at write time; see `findCycle`).
 */
export function reachableFrom(graph: PipelineGraph, webhookId: string): string[] {
  const reached = new Set<string>();
  const queue = [webhookId];
  while (queue.length > 0) {
    const id = queue.shift() as string;
    for (const edge of graph.outgoing.get(id) ?? []) {
      if (edge.kind !== "flow" || reached.has(edge.to) || !graph.nodes.has(edge.to)) continue;
      reached.add(edge.to);
      queue.push(edge.to);
    }
  }
  return topologicalOrder(graph, reached);
}

/** Kahn's algorithm over the flow edges between `subset`'s vertices, stable in input order. */
export function topologicalOrder(graph: PipelineGraph, subset: ReadonlySet<string>): string[] {
  const rank = new Map<string, number>();
  graph.vertices.forEach((id, index) => {
    rank.set(id, index);
  });
  const pending = new Map<string, number>();
  for (const id of subset) {
    const inside = (graph.incoming.get(id) ?? []).filter(
      (edge) => edge.kind === "flow" && subset.has(edge.from),
    );
    pending.set(id, inside.length);
  }
  const ready = [...subset].filter((id) => pending.get(id) === 0);
  const order: string[] = [];
  const byRank = (a: string, b: string) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
  ready.sort(byRank);
  while (ready.length > 0) {
    const id = ready.shift() as string;
    order.push(id);
    let added = false;
    for (const edge of graph.outgoing.get(id) ?? []) {
      if (edge.kind !== "flow" || !subset.has(edge.to)) continue;
      const left = (pending.get(edge.to) ?? 0) - 1;
      pending.set(edge.to, left);
      if (left === 0) {
        ready.push(edge.to);
        added = true;
      }
    }
    if (added) ready.sort(byRank);
  }
  return order;
}

/**
 * Where an event enters `graph`: at `entry` (the scheduled workflow whose tick injected it) when
 * that vertex is a node of the graph with nodes after it, else at its webhook (undefined).
 */
export function entryOf(
  graph: PipelineGraph,
  entry: string | null | undefined,
): string | undefined {
  if (!entry || !graph.nodes.has(entry)) return undefined;
  return reachableFrom(graph, entry).length > 0 ? entry : undefined;
}
