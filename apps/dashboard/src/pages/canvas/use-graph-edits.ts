import type { Connection } from "@xyflow/react";
import { useToast } from "../../ui/toast";
import type { GraphEdge, GraphNode } from "./graph-model";
import type { NodeMutations } from "./use-node-mutations";

/** What the canvas has selected: a node or an edge, by canvas id. */
export interface CanvasSelection {
  kind: "node" | "edge";
  id: string;
}

/** Connecting, disconnecting and deleting on the canvas, each written to the nodes' records. */
export function useGraphEdits(props: {
  graph: { nodes: GraphNode[]; edges: GraphEdge[] };
  byId: Map<string, GraphNode>;
  selected: CanvasSelection | null;
  setSelected: (selected: CanvasSelection | null) => void;
  mutations: Pick<NodeMutations, "patch" | "remove">;
}) {
  const { graph, byId, selected, setSelected } = props;
  const { patch, remove } = props.mutations;
  const toast = useToast();
  const connect = (c: Connection) => {
    const source = byId.get(c.source);
    const target = byId.get(c.target);
    if (!source || !target?.record)
      return toast("Only nodes take inputs: connect into a node", "error");
    const inputs = [
      ...target.record.inputNodes,
      { nodeType: source.nodeType, nodeId: source.recordId },
    ];
    patch.mutate(
      { node: target, body: { inputNodes: inputs } },
      { onSuccess: () => toast(`Connected ${source.label} → ${target.label}`) },
    );
  };
  const disconnect = (edgeId: string) => {
    const edge = graph.edges.find((e) => e.id === edgeId);
    const target = edge && byId.get(edge.target);
    const source = edge && byId.get(edge.source);
    if (!edge || !target || !source) return;
    if (edge.kind === "input" && target.record) {
      const inputs = target.record.inputNodes.filter(
        (i) => !(i.nodeId === source.recordId && i.nodeType === source.nodeType),
      );
      patch.mutate(
        { node: target, body: { inputNodes: inputs } },
        { onSuccess: () => setSelected(null) },
      );
    } else if (edge.kind === "chain") {
      toast("A chain is part of the webhook: edit its chain on the webhook's page", "error");
    } else if (
      edge.field &&
      source.record &&
      !edge.field.includes(".") &&
      Array.isArray(source.record[edge.field])
    ) {
      const list = (source.record[edge.field] as string[]).filter((id) => id !== target.recordId);
      patch.mutate(
        { node: source, body: { [edge.field]: list } },
        { onSuccess: () => setSelected(null) },
      );
    } else {
      toast("This forward is part of a rule: edit the node's form to change it", "error");
    }
  };
  const deleteSelected = () => {
    if (!selected) return;
    if (selected.kind === "edge") return disconnect(selected.id);
    const node = byId.get(selected.id);
    if (node?.kind === "node" && window.confirm(`Delete ${node.label}?`)) remove.mutate(node);
  };
  return { connect, deleteSelected };
}
