import { type FamilyConfig, isActionFamily } from "../families/registry.js";
import type { PipelineNode } from "../nodes.js";

/**
 * `flow`: the payload moves along it inside one event's pipeline (inputNodes, a rate limiter's
 * outputTransformIds). `forward`: a new event is created in the target webhook's own pipeline
 * (router routes, a rate limiter's outputWebhookIds).
 */
export type EdgeKind = "flow" | "forward";

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

/**
 * A graph over vertex ids: processing nodes, plus the webhooks (and other sources such as
 * scheduled workflows) they reference. Ids are unique across kinds (each kind has its own prefix).
 */
export interface PipelineGraph {
  /** Processing nodes by id, in the order they were given. */
  nodes: ReadonlyMap<string, PipelineNode>;
  /** Every vertex id (nodes and referenced sources), nodes first in input order. */
  vertices: readonly string[];
  /** Outgoing edges per vertex, in declaration order. */
  outgoing: ReadonlyMap<string, readonly GraphEdge[]>;
  /** Incoming edges per vertex. */
  incoming: ReadonlyMap<string, readonly GraphEdge[]>;
}

function push(map: Map<string, GraphEdge[]>, key: string, edge: GraphEdge): void {
  const list = map.get(key);
  if (list) list.push(edge);
  else map.set(key, [edge]);
}

/** The edges a node declares: its inputs (X -> node) and its outputs (node -> Y). */
export function edgesOf(node: PipelineNode): GraphEdge[] {
  const edges: GraphEdge[] = node.inputNodes.map((input) => ({
    from: input.nodeId,
    to: node.id,
    kind: "flow" as const,
  }));
  if (node.family === "router") {
    for (const route of (node.config as FamilyConfig<"router">).routes) {
      edges.push({ from: node.id, to: route.outputWebhookId, kind: "forward" });
    }
  }
  if (node.family === "aiNode") {
    // A tool call runs the webhook's pipeline: an edge, so a tool that reaches back is a cycle.
    for (const id of (node.config as FamilyConfig<"aiNode">).toolWebhookIds) {
      edges.push({ from: node.id, to: id, kind: "forward" });
    }
  }
  if (node.family === "flowLink") {
    const link = node.config as FamilyConfig<"flowLink">;
    edges.push({ from: node.id, to: link.webhookId, kind: "forward" });
  }
  if (node.family === "rateLimiter") {
    const limiter = node.config as FamilyConfig<"rateLimiter">;
    for (const id of limiter.outputTransformIds) {
      edges.push({ from: node.id, to: id, kind: "flow" });
    }
    for (const id of limiter.outputWebhookIds) {
      edges.push({ from: node.id, to: id, kind: "forward" });
    }
  }
  return edges;
}

/**
 * Builds the graph of `nodes`. Post-delivery actions are left out: they are no step of the
 * graph (they fire after delivery) and feed nothing, so they can neither close a cycle nor
 * change what an event passes through. Duplicate edges (a transform listed both in a limiter's
 * outputTransformIds and with the limiter in its inputNodes) are kept once.
 */
export function buildGraph(nodes: readonly PipelineNode[]): PipelineGraph {
  const byId = new Map<string, PipelineNode>();
  for (const node of nodes) if (!isActionFamily(node.family)) byId.set(node.id, node);
  const vertices: string[] = [...byId.keys()];
  const known = new Set(vertices);
  const outgoing = new Map<string, GraphEdge[]>();
  const incoming = new Map<string, GraphEdge[]>();
  const seen = new Set<string>();
  for (const node of byId.values()) {
    for (const edge of edgesOf(node)) {
      const key = `${edge.from}\u0000${edge.to}\u0000${edge.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      for (const id of [edge.from, edge.to]) {
        if (!known.has(id)) {
          known.add(id);
          vertices.push(id);
        }
      }
      push(outgoing, edge.from, edge);
      push(incoming, edge.to, edge);
    }
  }
  return { nodes: byId, vertices, outgoing, incoming };
}

export function outgoingEdges(graph: PipelineGraph, id: string): readonly GraphEdge[] {
  return graph.outgoing.get(id) ?? [];
}

export function incomingEdges(graph: PipelineGraph, id: string): readonly GraphEdge[] {
  return graph.incoming.get(id) ?? [];
}
