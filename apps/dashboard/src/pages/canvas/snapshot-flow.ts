import type { Schemas } from "../../api/client";
import type { FlowNodeType } from "./flow-node";
import type { GraphEdge, GraphNode } from "./graph-model";

type Snapshot = Schemas["CanvasSnapshot"];

/** The canvas as a snapshot stores it: the canvas node form (`webhook-<id>`, type, position, data). */
export function snapshotInput(
  name: string,
  graph: { nodes: GraphNode[]; edges: GraphEdge[] },
  positionOf: (id: string) => { x: number; y: number },
): Schemas["CreateCanvasSnapshotInput"] {
  return {
    name,
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      type: n.nodeType,
      position: positionOf(n.id),
      data:
        n.kind === "webhook"
          ? { label: n.label, webhookId: n.recordId }
          : { label: n.label, nodeId: n.recordId, family: n.family?.label ?? n.nodeType },
    })),
    edges: graph.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
}

/** A saved snapshot drawn read-only, each node with its time-travel result when there is one. */
export function snapshotFlow(
  snapshot: Snapshot,
  results: Map<string, { result: string; detail?: string }>,
): FlowNodeType[] {
  return snapshot.nodes.map((n) => {
    const data = (n.data ?? {}) as Record<string, unknown>;
    const result = results.get(n.id);
    return {
      id: n.id,
      type: "hookflow",
      position: n.position,
      data: {
        label: String(data.label ?? data.nodeId ?? data.webhookId ?? n.id),
        kind: n.type === "webhook" ? "Webhook" : String(data.family ?? n.type),
        isWebhook: n.type === "webhook",
        orphan: false,
        result: result?.result,
        detail: result?.detail,
        dimmed: results.size > 0 && !result,
      },
    };
  });
}
