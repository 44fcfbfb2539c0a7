import type { FamilyConfig } from "../families/registry.js";
import type { PipelineNode } from "../nodes.js";
import { buildGraph, incomingEdges, type PipelineGraph } from "./build-graph.js";
import { reachableFrom } from "./graph-order.js";

/** How far one event of a webhook can spread through forwards, at most. */
export interface ForwardReach {
  /**
   * Events one event of the webhook can create through forwards, its descendants' forwards
   * included (router routes, rate-limiter output webhooks), counting every path a node is
   * reached by. Saturates at `maxDescendants + 1`.
   */
  descendants: number;
  /** The longest chain of forwards from the webhook. Saturates at `maxDepth + 1`. */
  depth: number;
}

export interface ForwardScope {
  /** The nodes of one owner scope: a webhook's graph is made of these only. */
  nodes: readonly PipelineNode[];
  /** Whether a forward to this webhook can run (a webhook of the same scope). */
  forwardable: (webhookId: string) => boolean;
  maxDescendants: number;
  maxDepth: number;
}

const NONE: ForwardReach = { descendants: 0, depth: 0 };

/** Paths reaching each node of `order` when one event enters at `webhookId` (a merge joins). */
function pathCounts(
  graph: PipelineGraph,
  webhookId: string,
  order: readonly string[],
  cap: number,
): Map<string, number> {
  const paths = new Map<string, number>();
  const leaving = (id: string): number => {
    if (id === webhookId) return 1;
    const count = paths.get(id) ?? 0;
    return graph.nodes.get(id)?.family === "merge" ? Math.min(count, 1) : count;
  };
  for (const id of order) {
    let count = 0;
    for (const edge of incomingEdges(graph, id)) {
      if (edge.kind === "flow") count += leaving(edge.from);
    }
    paths.set(id, Math.min(count, cap));
  }
  return paths;
}

/** The webhooks one visit of `node` forwards to, as the engine would: every limiter output, or one route. */
function forwardTargets(node: PipelineNode): { all: string[] } | { oneOf: string[] } | undefined {
  if (node.family === "rateLimiter") {
    return { all: (node.config as FamilyConfig<"rateLimiter">).outputWebhookIds };
  }
  if (node.family === "flowLink") {
    return { all: [(node.config as FamilyConfig<"flowLink">).webhookId] };
  }
  if (node.family === "router") {
    return { oneOf: (node.config as FamilyConfig<"router">).routes.map((r) => r.outputWebhookId) };
  }
  return undefined;
}

/**
 * The forward reach of every webhook of an owner scope, computed on demand and memoised: what
 * the write-time limits (`GRAPH_MAX_DESCENDANTS`, `GRAPH_MAX_FORWARD_DEPTH`) are checked on. An
 * upper bound of what the engine does: every path a node is reached by forwards (a merge passes
 * one path on), a router forwards along the route that spreads furthest, a limiter to all its
 * outputs. Forwards out of the scope are left out: the worker blocks them.
 */
export function measureForwardReach(scope: ForwardScope): (webhookId: string) => ForwardReach {
  const graph = buildGraph(scope.nodes);
  const capCount = scope.maxDescendants + 1;
  const capDepth = scope.maxDepth + 1;
  const memo = new Map<string, ForwardReach>();
  const visiting = new Set<string>();

  const reachOf = (webhookId: string): ForwardReach => {
    const known = memo.get(webhookId);
    if (known) return known;
    // A forward cycle (refused at write time) would spread without end.
    if (visiting.has(webhookId)) return { descendants: capCount, depth: capDepth };
    visiting.add(webhookId);
    const order = reachableFrom(graph, webhookId);
    const paths = pathCounts(graph, webhookId, order, capCount);
    let descendants = 0;
    let depth = 0;
    const through = (target: string): number => {
      const below = reachOf(target);
      depth = Math.max(depth, Math.min(below.depth + 1, capDepth));
      return 1 + below.descendants;
    };
    for (const id of order) {
      const targets = forwardTargets(graph.nodes.get(id) as PipelineNode);
      const visits = paths.get(id) ?? 0;
      if (!targets || visits === 0) continue;
      const spread =
        "all" in targets
          ? targets.all.filter(scope.forwardable).reduce((sum, t) => sum + through(t), 0)
          : Math.max(0, ...targets.oneOf.filter(scope.forwardable).map(through));
      descendants = Math.min(descendants + visits * spread, capCount);
    }
    visiting.delete(webhookId);
    const reach = descendants === 0 && depth === 0 ? NONE : { descendants, depth };
    memo.set(webhookId, reach);
    return reach;
  };
  return reachOf;
}
