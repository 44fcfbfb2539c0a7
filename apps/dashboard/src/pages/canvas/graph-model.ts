import type { NodeFamily } from "./node-families";

export interface InputRef {
  nodeType: string;
  nodeId: string;
}

/** A record of any node family, as its GET answers it. */
export interface NodeRecord {
  id: string;
  name: string;
  inputNodes: InputRef[];
  [field: string]: unknown;
}

export interface WebhookRef {
  id: string;
  name: string;
  isActive: boolean;
  targetUrl: string;
  /** Webhooks its delivered events continue into, in order (a chain). */
  chainWebhookIds?: string[];
}

export interface GraphNode {
  /** Canvas id: `webhook-<id>` for webhooks, the record id for nodes. */
  id: string;
  kind: "webhook" | "node";
  nodeType: string;
  recordId: string;
  label: string;
  family?: NodeFamily;
  record?: NodeRecord;
  /** Not reachable from the webhook and fed by nothing: a node waiting to be connected. */
  orphan: boolean;
  depth: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  /**
   * `input`: the target's inputNodes names the source; `forward`: a field of the source names
   * the target (an output, a flow link's or schedule's webhook, an AI node's tool); `chain`: a
   * delivered event of the source webhook continues in the target webhook.
   */
  kind: "input" | "forward" | "chain";
  /** For forward edges: the field of the source that holds the reference. */
  field?: string;
}

const canvasIdOf = (nodeType: string, id: string) =>
  nodeType === "webhook" ? `webhook-${id}` : id;

/** Top-level fields that name the webhook a record sends into (flow links, schedules, tools). */
const WEBHOOK_FIELDS = new Set(["webhookId", "toolWebhookIds"]);

/**
 * Outgoing references a record declares by naming convention: `output<Type>Id` or
 * `output<Type>Ids` at its top level or inside its list items (a router's routes), and the
 * webhooks named by `webhookId` or `toolWebhookIds` at its top level.
 */
function forwardRefs(record: NodeRecord): Array<{ nodeType: string; id: string; field: string }> {
  const out: Array<{ nodeType: string; id: string; field: string }> = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        visit(item, `${path}.${i}`);
      });
    } else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        const match = /^output([A-Z]\w*?)Ids?$/.exec(key);
        const named = match?.[1] ? match[1][0]?.toLowerCase() + match[1].slice(1) : null;
        const nodeType = named ?? (path === "" && WEBHOOK_FIELDS.has(key) ? "webhook" : null);
        const field = path ? `${path}.${key}` : key;
        if (nodeType && typeof inner === "string") out.push({ nodeType, id: inner, field });
        else if (nodeType && Array.isArray(inner)) {
          for (const id of inner) if (typeof id === "string") out.push({ nodeType, id, field });
        } else if (typeof inner === "object") visit(inner, field);
      }
    }
  };
  visit(record, "");
  return out;
}

interface Loaded {
  family: NodeFamily;
  record: NodeRecord;
}

/**
 * The webhook's whole graph: every node reachable from it through inputs and forwards, the
 * webhooks it forwards into (not expanded), and unattached nodes of the workspace.
 */
export function buildGraph(
  root: WebhookRef,
  webhooks: WebhookRef[],
  records: Loaded[],
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const byCanvasId = new Map<string, Loaded>();
  for (const loaded of records) byCanvasId.set(loaded.record.id, loaded);
  const downstream = new Map<string, string[]>();
  const link = (from: string, to: string) =>
    downstream.set(from, [...(downstream.get(from) ?? []), to]);
  for (const { record } of records) {
    for (const input of record.inputNodes)
      link(canvasIdOf(input.nodeType, input.nodeId), record.id);
    for (const ref of forwardRefs(record)) link(record.id, canvasIdOf(ref.nodeType, ref.id));
  }
  const rootId = canvasIdOf("webhook", root.id);
  const depth = new Map<string, number>([[rootId, 0]]);
  const queue = [rootId];
  // Longest-path depth (bounded: graphs are acyclic, and each id is re-queued at most a few times).
  for (let i = 0; i < queue.length && i < 5000; i++) {
    const id = queue[i] as string;
    if (id !== rootId && id.startsWith("webhook-")) continue;
    for (const next of downstream.get(id) ?? []) {
      const d = (depth.get(id) ?? 0) + 1;
      if ((depth.get(next) ?? -1) < d) {
        depth.set(next, d);
        queue.push(next);
      }
    }
  }
  // A chain: the root's delivered events continue in each chained webhook in turn.
  const chain = (root.chainWebhookIds ?? []).map((id) => canvasIdOf("webhook", id));
  chain.forEach((id, i) => {
    const previous = i === 0 ? rootId : (chain[i - 1] as string);
    depth.set(id, Math.max(depth.get(id) ?? 0, (depth.get(previous) ?? 0) + 1));
    link(previous, id);
  });
  const referenced = new Set([...downstream.values()].flat());
  const webhookById = new Map(webhooks.map((w) => [w.id, w]));
  const nodes: GraphNode[] = [];
  for (const [id, d] of depth) {
    if (id.startsWith("webhook-")) {
      const webhookId = id.slice("webhook-".length);
      const w = webhookById.get(webhookId) ?? (webhookId === root.id ? root : undefined);
      nodes.push({
        id,
        kind: "webhook",
        nodeType: "webhook",
        recordId: webhookId,
        label: w?.name ?? webhookId,
        orphan: false,
        depth: d,
      });
      continue;
    }
    const loaded = byCanvasId.get(id);
    if (!loaded) continue;
    nodes.push(nodeOf(loaded, false, d));
  }
  for (const loaded of records) {
    if (depth.has(loaded.record.id)) continue;
    if (loaded.record.inputNodes.length === 0 && !referenced.has(loaded.record.id)) {
      nodes.push(nodeOf(loaded, true, -1));
    }
  }
  const shown = new Set(nodes.map((n) => n.id));
  const edges: GraphEdge[] = [];
  for (const { record } of records) {
    if (!shown.has(record.id)) continue;
    for (const input of record.inputNodes) {
      const source = canvasIdOf(input.nodeType, input.nodeId);
      if (shown.has(source))
        edges.push({ id: `${source}->${record.id}`, source, target: record.id, kind: "input" });
    }
    for (const ref of forwardRefs(record)) {
      const target = canvasIdOf(ref.nodeType, ref.id);
      if (shown.has(target)) {
        edges.push({
          id: `${record.id}=>${target}:${ref.field}`,
          source: record.id,
          target,
          kind: "forward",
          field: ref.field,
        });
      }
    }
  }
  chain.forEach((id, i) => {
    const source = i === 0 ? rootId : (chain[i - 1] as string);
    edges.push({
      id: `${source}~>${id}`,
      source,
      target: id,
      kind: "chain",
      field: `step ${i + 1}`,
    });
  });
  return { nodes, edges };
}

function nodeOf(loaded: Loaded, orphan: boolean, depth: number): GraphNode {
  return {
    id: loaded.record.id,
    kind: "node",
    nodeType: loaded.family.nodeType,
    recordId: loaded.record.id,
    label: loaded.record.name,
    family: loaded.family,
    record: loaded.record,
    orphan,
    depth,
  };
}

/** Top to bottom by depth, side by side within a depth; unattached nodes in a column to the right. */
export function layout(nodes: GraphNode[]): Map<string, { x: number; y: number }> {
  const positions = new Map<string, { x: number; y: number }>();
  const rows = new Map<number, number>();
  const maxRows = Math.max(
    1,
    ...[
      ...nodes
        .reduce((m, n) => m.set(n.depth, (m.get(n.depth) ?? 0) + 1), new Map<number, number>())
        .entries(),
    ]
      .filter(([d]) => d >= 0)
      .map(([, c]) => c),
  );
  let orphanColumn = 0;
  for (const node of nodes) {
    if (node.depth < 0) {
      positions.set(node.id, { x: (maxRows + 0.5) * 230, y: orphanColumn * 110 });
      orphanColumn++;
      continue;
    }
    const row = rows.get(node.depth) ?? 0;
    rows.set(node.depth, row + 1);
    positions.set(node.id, { x: row * 230, y: node.depth * 110 });
  }
  return positions;
}
