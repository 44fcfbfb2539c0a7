import { type FamilyKey, reachableFrom } from "@hookflow/pipeline";
import { STATEFUL, type WebhookGraph } from "./graph-cache.js";

/** Entry graphs computed from each cached webhook graph, kept as long as that graph is. */
const byGraph = new WeakMap<WebhookGraph, Map<string, WebhookGraph>>();

/**
 * The graph an event runs through when it enters at `entry` (the scheduled workflow whose tick
 * injected it; docs/decisions.md, Scheduled workflows): the nodes that list the workflow in
 * inputNodes, and what follows them, instead of the webhook's own nodes. A workflow that feeds
 * no node (or one no longer on this webhook's graph) leaves the webhook's graph as it is, so its
 * ticks run like any event of the webhook.
 */
export function graphForEntry(graph: WebhookGraph, entry: string | null): WebhookGraph {
  if (entry === null || !graph.graph.nodes.has(entry)) return graph;
  let entries = byGraph.get(graph);
  const known = entries?.get(entry);
  if (known) return known;
  const order = reachableFrom(graph.graph, entry);
  if (order.length === 0) return graph;
  const stateful = order.some((id) => STATEFUL.has(graph.graph.nodes.get(id)?.family as FamilyKey));
  const entered: WebhookGraph = { ...graph, order, stateful, entry };
  if (!entries) {
    entries = new Map();
    byGraph.set(graph, entries);
  }
  entries.set(entry, entered);
  return entered;
}
