import { useMemo, useState } from "react";
import { Link } from "wouter";
import { ErrorState, QueryView } from "../../ui/states";
import { useWebhook, useWebhooks, type Webhook } from "../webhooks/webhook-queries";
import { AddNodeDialog } from "./add-node-dialog";
import { CanvasFlow } from "./canvas-flow";
import { CanvasSidePanel } from "./canvas-side-panel";
import { CanvasToolbar } from "./canvas-toolbar";
import { flowEdgesOf, flowNodesOf, stepResults } from "./flow-elements";
import { buildGraph, layout } from "./graph-model";
import type { OpenApiDocument } from "./json-schema";
import type { NodeFamily } from "./node-families";
import type { Snapshot, TimeTravelReport } from "./time-travel-panel";
import { useFamilyRecords, useOpenApiDocument } from "./use-canvas-data";
import { useCanvasSnapshots } from "./use-canvas-snapshots";
import { type CanvasSelection, useGraphEdits } from "./use-graph-edits";
import { useNodeMutations } from "./use-node-mutations";

function CanvasEditor({ webhook, doc }: { webhook: Webhook; doc: OpenApiDocument }) {
  const webhooks = useWebhooks();
  const data = useFamilyRecords(doc);
  const [moved, setMoved] = useState<Record<string, { x: number; y: number }>>({});
  const [selected, setSelected] = useState<CanvasSelection | null>(null);
  const [adding, setAdding] = useState<NodeFamily | null>(null);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [report, setReport] = useState<TimeTravelReport | null>(null);
  const graph = useMemo(
    () => buildGraph(webhook, webhooks.data ?? [], data.records),
    [webhook, webhooks.data, data.records],
  );
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const auto = layout(graph.nodes);
  const positionOf = (id: string) => moved[id] ?? auto.get(id) ?? { x: 0, y: 0 };
  const { snapshots, saveSnapshot } = useCanvasSnapshots(graph, positionOf);
  const mutations = useNodeMutations({
    created: (record) => {
      setAdding(null);
      setSelected({ kind: "node", id: record.id });
    },
    removed: () => setSelected(null),
  });
  const edits = useGraphEdits({ graph, byId, selected, setSelected, mutations });
  const results = stepResults(report, byId);
  const selectedNode = selected?.kind === "node" ? byId.get(selected.id) : undefined;

  if (data.error) return <ErrorState error={data.error} retry={mutations.refresh} />;
  return (
    <>
      <CanvasToolbar
        families={data.families}
        readOnly={snapshot !== null}
        selected={selected}
        onAdd={setAdding}
        onDelete={edits.deleteSelected}
        onSave={(name) => saveSnapshot.mutate(name)}
        saving={saveSnapshot.isPending}
      />
      <div className="canvas-layout">
        <CanvasFlow
          pending={data.isPending}
          nodes={flowNodesOf({ snapshot, results, nodes: graph.nodes, positionOf, selected })}
          edges={flowEdgesOf({ snapshot, results, edges: graph.edges, selected })}
          readOnly={snapshot !== null}
          onConnect={edits.connect}
          onSelect={setSelected}
          onMove={(id, position) => setMoved((m) => ({ ...m, [id]: position }))}
          onDelete={edits.deleteSelected}
        />
        <CanvasSidePanel
          webhookId={webhook.id}
          selectedNode={selectedNode}
          candidates={graph.nodes}
          doc={doc}
          patch={mutations.patch}
          snapshot={snapshot}
          snapshots={snapshots}
          onSnapshot={setSnapshot}
          onReport={setReport}
        />
      </div>
      <AddNodeDialog
        doc={doc}
        adding={adding}
        from={selectedNode ?? byId.get(`webhook-${webhook.id}`)}
        create={mutations.create}
        onClose={() => setAdding(null)}
      />
    </>
  );
}

/** A webhook's graph on a canvas: nodes, edges, forms, snapshots and time travel. */
export function CanvasPage({ webhookId }: { webhookId: string }) {
  const webhook = useWebhook(webhookId);
  const doc = useOpenApiDocument();
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Canvas{webhook.data ? `: ${webhook.data.name}` : ""}</h1>
          <p>
            Everything an event of this webhook passes through.{" "}
            <Link href={`/webhooks/${webhookId}`}>Back to the webhook</Link>
          </p>
        </div>
      </div>
      <QueryView query={doc} label="Loading node families…">
        {(d) => (
          <QueryView query={webhook}>{(w) => <CanvasEditor webhook={w} doc={d} />}</QueryView>
        )}
      </QueryView>
    </>
  );
}
