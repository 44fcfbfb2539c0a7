import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  MarkerType,
  ReactFlow,
} from "@xyflow/react";
import { useMemo, useState } from "react";
import { Link } from "wouter";
import { useSession } from "../../api/api-context";
import { call, messageOf } from "../../api/client";
import { Dialog } from "../../ui/dialog";
import { ErrorState, Loading, QueryView } from "../../ui/states";
import { useToast } from "../../ui/toast";
import { useWebhook, useWebhooks, type Webhook } from "../webhooks/webhook-queries";
import { CanvasToolbar } from "./canvas-toolbar";
import { familyApi } from "./family-api";
import { type FlowNodeType, nodeTypes } from "./flow-node";
import { buildGraph, type GraphEdge, type GraphNode, layout } from "./graph-model";
import { InputsEditor } from "./inputs-editor";
import { initialValue, type OpenApiDocument } from "./json-schema";
import { NodeForm } from "./node-editor";
import type { NodeFamily } from "./node-families";
import { snapshotFlow, snapshotInput } from "./snapshot-flow";
import { type Snapshot, TimeTravelPanel, type TimeTravelReport } from "./time-travel-panel";
import { useFamilyRecords, useOpenApiDocument } from "./use-canvas-data";

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

function CanvasEditor({ webhook, doc }: { webhook: Webhook; doc: OpenApiDocument }) {
  const { api, organizationId } = useSession();
  const queryClient = useQueryClient();
  const toast = useToast();
  const webhooks = useWebhooks();
  const data = useFamilyRecords(doc);
  const [moved, setMoved] = useState<Record<string, { x: number; y: number }>>({});
  const [selected, setSelected] = useState<{ kind: "node" | "edge"; id: string } | null>(null);
  const [adding, setAdding] = useState<NodeFamily | null>(null);
  const [snapshot, setSnapshot] = useState<Snapshot | null>(null);
  const [report, setReport] = useState<TimeTravelReport | null>(null);
  const snapshots = useQuery({
    queryKey: ["snapshots", organizationId],
    queryFn: () => call(api.GET("/api/canvas-snapshots", { params: { query: { limit: 100 } } })),
  });
  const graph = useMemo(
    () => buildGraph(webhook, webhooks.data ?? [], data.records),
    [webhook, webhooks.data, data.records],
  );
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["family"] });
  const onError = (e: unknown) => toast(messageOf(e), "error");
  const create = useMutation({
    mutationFn: (v: { family: NodeFamily; body: unknown }) =>
      familyApi.create(api, v.family, v.body),
    onSuccess: (record) => {
      toast(`${record.name} added`);
      setAdding(null);
      setSelected({ kind: "node", id: record.id });
      refresh();
    },
  });
  const patch = useMutation({
    mutationFn: (v: { node: GraphNode; body: unknown }) =>
      v.node.family
        ? familyApi.update(api, v.node.family, v.node.recordId, v.body)
        : Promise.reject(new Error("A webhook is edited on its own page")),
    onSuccess: () => refresh(),
    onError,
  });
  const remove = useMutation({
    mutationFn: (node: GraphNode) =>
      node.family ? familyApi.remove(api, node.family, node.recordId) : Promise.resolve(),
    onSuccess: () => {
      setSelected(null);
      refresh();
    },
    onError,
  });
  const saveSnapshot = useMutation({
    mutationFn: (name: string) =>
      call(api.POST("/api/canvas-snapshots", { body: snapshotInput(name, graph, positionOf) })),
    onSuccess: (s) => {
      toast(`Snapshot ${s.name} saved`);
      void queryClient.invalidateQueries({ queryKey: ["snapshots"] });
    },
    onError,
  });
  const auto = layout(graph.nodes);
  const positionOf = (id: string) => moved[id] ?? auto.get(id) ?? { x: 0, y: 0 };

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

  const results = new Map<string, { result: string; detail?: string }>();
  for (const step of report?.steps ?? []) {
    const id =
      step.nodeType === "webhook" || !byId.has(step.node) ? `webhook-${step.node}` : step.node;
    results.set(byId.has(step.node) ? step.node : id, {
      result: step.result,
      detail: step.error ?? step.reason,
    });
  }
  const flowNodes: FlowNodeType[] = snapshot
    ? snapshotFlow(snapshot, results)
    : graph.nodes.map((n) => ({
        id: n.id,
        type: "hookflow",
        position: positionOf(n.id),
        selected: selected?.kind === "node" && selected.id === n.id,
        data: {
          label: n.label,
          kind: n.family?.label ?? "Webhook",
          isWebhook: n.kind === "webhook",
          orphan: n.orphan,
        },
      }));
  const flowEdges: Edge[] = snapshot
    ? snapshot.edges.map((e, i) => ({
        id: e.id ?? `e${i}`,
        source: e.source,
        target: e.target,
        animated: results.has(e.source) && results.has(e.target),
        markerEnd: { type: MarkerType.ArrowClosed },
      }))
    : graph.edges.map((e) => ({
        ...toFlowEdge(e),
        selected: selected?.kind === "edge" && selected.id === e.id,
      }));
  const selectedNode = selected?.kind === "node" ? byId.get(selected.id) : undefined;

  if (data.error) return <ErrorState error={data.error} retry={refresh} />;
  return (
    <>
      <CanvasToolbar
        families={data.families}
        readOnly={snapshot !== null}
        selected={selected}
        onAdd={setAdding}
        onDelete={deleteSelected}
        onSave={(name) => saveSnapshot.mutate(name)}
        saving={saveSnapshot.isPending}
      />
      <div className="canvas-layout">
        <section className="canvas-frame" aria-label="Canvas">
          {data.isPending ? (
            <Loading label="Loading graph…" />
          ) : (
            <ReactFlow
              // A new set of nodes (added, deleted, a snapshot shown) fits the view again.
              key={flowNodes.map((n) => n.id).join(",")}
              nodes={flowNodes}
              edges={flowEdges}
              nodeTypes={nodeTypes}
              fitView
              fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
              nodesConnectable={!snapshot}
              nodesDraggable
              deleteKeyCode={null}
              onConnect={connect}
              onNodesChange={(changes) => {
                // Selection by click or keyboard (Tab to a node, Enter) lands here.
                const picked = changes.find((c) => c.type === "select" && c.selected);
                if (picked && "id" in picked) setSelected({ kind: "node", id: picked.id });
              }}
              onEdgesChange={(changes) => {
                const picked = changes.find((c) => c.type === "select" && c.selected);
                if (picked && "id" in picked) setSelected({ kind: "edge", id: picked.id });
              }}
              onNodeClick={(_, n) => setSelected({ kind: "node", id: n.id })}
              onEdgeClick={(_, e) => setSelected({ kind: "edge", id: e.id })}
              onPaneClick={() => setSelected(null)}
              onNodeDragStop={(_, n) => setMoved((m) => ({ ...m, [n.id]: n.position }))}
              onKeyDown={(e) =>
                (e.key === "Delete" || e.key === "Backspace") && !snapshot && deleteSelected()
              }
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              <Controls showInteractive={false} />
            </ReactFlow>
          )}
        </section>
        <div className="side-panel">
          {selectedNode?.family && selectedNode.record && !snapshot ? (
            <section className="card stack" aria-labelledby="edit-h">
              <h2 id="edit-h" style={{ margin: 0 }}>
                {selectedNode.label}
              </h2>
              <span className="muted small">
                {selectedNode.family.label} · {selectedNode.recordId}
              </span>
              <InputsEditor
                node={selectedNode}
                candidates={graph.nodes}
                pending={patch.isPending}
                onChange={(inputNodes) =>
                  patch.mutate({ node: selectedNode, body: { inputNodes } })
                }
              />
              <NodeForm
                key={`${selectedNode.recordId}-${String(selectedNode.record.updatedAt)}`}
                doc={doc}
                family={selectedNode.family}
                mode="update"
                initial={selectedNode.record}
                pending={patch.isPending}
                error={patch.error}
                onSubmit={(body) =>
                  patch.mutate(
                    { node: selectedNode, body },
                    { onSuccess: () => toast("Node saved") },
                  )
                }
              />
            </section>
          ) : (
            <section className="card small muted">
              {snapshot
                ? "Viewing a snapshot (read only). Pick an event and run time travel to see its path."
                : "Drag from a node's bottom handle to another node's top handle to connect them. Select a node to edit it; select a node or edge and press Delete to remove it."}
            </section>
          )}
          <QueryView query={snapshots} label="Loading snapshots…">
            {(list) => (
              <TimeTravelPanel
                webhookId={webhook.id}
                snapshots={list.filter((s) => s.graph.webhooks.some((w) => w.id === webhook.id))}
                onSnapshot={setSnapshot}
                onReport={setReport}
              />
            )}
          </QueryView>
        </div>
      </div>
      <Dialog
        title={adding ? `New ${adding.label.toLowerCase()}` : ""}
        open={adding !== null}
        onClose={() => setAdding(null)}
      >
        {adding && (
          <NodeForm
            doc={doc}
            family={adding}
            mode="create"
            initial={initialValue(doc, adding.createSchema)}
            pending={create.isPending}
            error={create.error}
            onCancel={() => setAdding(null)}
            onSubmit={(body) => {
              const from = selectedNode ?? byId.get(`webhook-${webhook.id}`);
              const inputNodes = from ? [{ nodeType: from.nodeType, nodeId: from.recordId }] : [];
              create.mutate({ family: adding, body: { ...(body as object), inputNodes } });
            }}
          />
        )}
      </Dialog>
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
