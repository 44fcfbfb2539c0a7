import { type Edge, MarkerType } from "@xyflow/react";
import type { FlowNodeType } from "./flow-node";
import type { GraphEdge, GraphNode } from "./graph-model";
import { snapshotFlow } from "./snapshot-flow";
import type { Snapshot, TimeTravelReport } from "./time-travel-panel";
import type { CanvasSelection } from "./use-graph-edits";

/** How a forward edge reads, by the field that makes it. */
const FORWARD_LABELS: Record<string, string> = {
  webhookId: "runs",
  toolWebhookIds: "tool",
};

function toFlowEdge(edge: GraphEdge): Edge {
  return {
    id: edge.id,
    source: edge.source,
    target: edge.target,
    animated: edge.kind !== "input",
    label:
      edge.kind === "chain"
        ? `chain ${edge.field ?? ""}`.trim()
        : edge.kind === "forward"
          ? (FORWARD_LABELS[edge.field ?? ""] ?? "forward")
          : undefined,
    markerEnd: { type: MarkerType.ArrowClosed },
    ariaLabel: `Edge from ${edge.source} to ${edge.target}`,
  };
}

type StepResults = Map<string, { result: string; detail?: string }>;

/** A time-travel report's result of each step, by the canvas id of the node that took it. */
export function stepResults(
  report: TimeTravelReport | null,
  byId: Map<string, GraphNode>,
): StepResults {
  const results: StepResults = new Map();
  for (const step of report?.steps ?? []) {
    const id =
      step.nodeType === "webhook" || !byId.has(step.node) ? `webhook-${step.node}` : step.node;
    results.set(byId.has(step.node) ? step.node : id, {
      result: step.result,
      detail: step.error ?? step.reason,
    });
  }
  return results;
}

/** The nodes React Flow draws: the snapshot shown, or else the live graph where it was laid out. */
export function flowNodesOf(props: {
  snapshot: Snapshot | null;
  results: StepResults;
  nodes: GraphNode[];
  positionOf: (id: string) => { x: number; y: number };
  selected: CanvasSelection | null;
}): FlowNodeType[] {
  const { snapshot, selected } = props;
  return snapshot
    ? snapshotFlow(snapshot, props.results)
    : props.nodes.map((n) => ({
        id: n.id,
        type: "hookflow",
        position: props.positionOf(n.id),
        selected: selected?.kind === "node" && selected.id === n.id,
        data: {
          label: n.label,
          kind: n.family?.label ?? "Webhook",
          isWebhook: n.kind === "webhook",
          orphan: n.orphan,
        },
      }));
}

/**
 * The edges React Flow draws: the snapshot's, animated along the path time travel took, or else
 * the live graph's.
 */
export function flowEdgesOf(props: {
  snapshot: Snapshot | null;
  results: StepResults;
  edges: GraphEdge[];
  selected: CanvasSelection | null;
}): Edge[] {
  const { snapshot, results, selected } = props;
  return snapshot
    ? snapshot.edges.map((e, i) => ({
        id: e.id ?? `e${i}`,
        source: e.source,
        target: e.target,
        animated: results.has(e.source) && results.has(e.target),
        markerEnd: { type: MarkerType.ArrowClosed },
      }))
    : props.edges.map((e) => ({
        ...toFlowEdge(e),
        selected: selected?.kind === "edge" && selected.id === e.id,
      }));
}
