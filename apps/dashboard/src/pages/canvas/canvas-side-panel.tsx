import { QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";
import type { GraphNode, NodeRecord } from "./graph-model";
import { InputsEditor } from "./inputs-editor";
import type { OpenApiDocument } from "./json-schema";
import { NodeForm } from "./node-editor";
import type { NodeFamily } from "./node-families";
import { type Snapshot, TimeTravelPanel, type TimeTravelReport } from "./time-travel-panel";
import type { CanvasSnapshots } from "./use-canvas-snapshots";
import type { NodeMutations } from "./use-node-mutations";

/** The selected node's inputs editor and form, each saving to its record. */
function NodeEditCard(props: {
  node: GraphNode;
  family: NodeFamily;
  record: NodeRecord;
  candidates: GraphNode[];
  doc: OpenApiDocument;
  patch: NodeMutations["patch"];
}) {
  const { node, family, record, patch } = props;
  const toast = useToast();
  return (
    <section className="card stack" aria-labelledby="edit-h">
      <h2 id="edit-h" style={{ margin: 0 }}>
        {node.label}
      </h2>
      <span className="muted small">
        {family.label} · {node.recordId}
      </span>
      <InputsEditor
        node={node}
        candidates={props.candidates}
        pending={patch.isPending}
        onChange={(inputNodes) => patch.mutate({ node, body: { inputNodes } })}
      />
      <NodeForm
        key={`${node.recordId}-${String(record.updatedAt)}`}
        doc={props.doc}
        family={family}
        mode="update"
        initial={record}
        pending={patch.isPending}
        error={patch.error}
        onSubmit={(body) => patch.mutate({ node, body }, { onSuccess: () => toast("Node saved") })}
      />
    </section>
  );
}

/** Beside the canvas: the selected node's editor (or how to use the canvas), then time travel. */
export function CanvasSidePanel(props: {
  webhookId: string;
  selectedNode: GraphNode | undefined;
  candidates: GraphNode[];
  doc: OpenApiDocument;
  patch: NodeMutations["patch"];
  snapshot: Snapshot | null;
  snapshots: CanvasSnapshots["snapshots"];
  onSnapshot: (snapshot: Snapshot | null) => void;
  onReport: (report: TimeTravelReport | null) => void;
}) {
  const { selectedNode, snapshot, webhookId } = props;
  return (
    <div className="side-panel">
      {selectedNode?.family && selectedNode.record && !snapshot ? (
        <NodeEditCard
          node={selectedNode}
          family={selectedNode.family}
          record={selectedNode.record}
          candidates={props.candidates}
          doc={props.doc}
          patch={props.patch}
        />
      ) : (
        <section className="card small muted">
          {snapshot
            ? "Viewing a snapshot (read only). Pick an event and run time travel to see its path."
            : "Drag from a node's bottom handle to another node's top handle to connect them. Select a node to edit it; select a node or edge and press Delete to remove it."}
        </section>
      )}
      <QueryView query={props.snapshots} label="Loading snapshots…">
        {(list) => (
          <TimeTravelPanel
            webhookId={webhookId}
            snapshots={list.filter((s) => s.graph.webhooks.some((w) => w.id === webhookId))}
            onSnapshot={props.onSnapshot}
            onReport={props.onReport}
          />
        )}
      </QueryView>
    </div>
  );
}
