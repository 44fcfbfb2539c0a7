import { Background, type Connection, Controls, type Edge, ReactFlow } from "@xyflow/react";
import { Loading } from "../../ui/states";
import { type FlowNodeType, nodeTypes } from "./flow-node";
import type { CanvasSelection } from "./use-graph-edits";

/**
 * The drawn graph: select, drag, connect and delete its nodes and edges (read only for a
 * snapshot).
 */
export function CanvasFlow(props: {
  pending: boolean;
  nodes: FlowNodeType[];
  edges: Edge[];
  readOnly: boolean;
  onConnect: (c: Connection) => void;
  onSelect: (selected: CanvasSelection | null) => void;
  onMove: (id: string, position: { x: number; y: number }) => void;
  onDelete: () => void;
}) {
  const { onSelect } = props;
  return (
    <section className="canvas-frame" aria-label="Canvas">
      {props.pending ? (
        <Loading label="Loading graph…" />
      ) : (
        <ReactFlow
          // A new set of nodes (added, deleted, a snapshot shown) fits the view again.
          key={props.nodes.map((n) => n.id).join(",")}
          nodes={props.nodes}
          edges={props.edges}
          nodeTypes={nodeTypes}
          fitView
          fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
          nodesConnectable={!props.readOnly}
          nodesDraggable
          deleteKeyCode={null}
          onConnect={props.onConnect}
          onNodesChange={(changes) => {
            // Selection by click or keyboard (Tab to a node, Enter) lands here.
            const picked = changes.find((c) => c.type === "select" && c.selected);
            if (picked && "id" in picked) onSelect({ kind: "node", id: picked.id });
          }}
          onEdgesChange={(changes) => {
            const picked = changes.find((c) => c.type === "select" && c.selected);
            if (picked && "id" in picked) onSelect({ kind: "edge", id: picked.id });
          }}
          onNodeClick={(_, n) => onSelect({ kind: "node", id: n.id })}
          onEdgeClick={(_, e) => onSelect({ kind: "edge", id: e.id })}
          onPaneClick={() => onSelect(null)}
          onNodeDragStop={(_, n) => props.onMove(n.id, n.position)}
          onKeyDown={(e) =>
            (e.key === "Delete" || e.key === "Backspace") && !props.readOnly && props.onDelete()
          }
          proOptions={{ hideAttribution: true }}
        >
          <Background gap={20} />
          <Controls showInteractive={false} />
        </ReactFlow>
      )}
    </section>
  );
}
