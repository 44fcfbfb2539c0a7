import { type CanvasSnapshotRow, findGraphWebhooks } from "@hookflow/db";
import type { OwnerColumns } from "@hookflow/domain";
import { canSee } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import type { CanvasEdge, CanvasNode } from "./canvas-layout.js";
import { type FrozenGraph, isHidden, parseFrozenGraph } from "./frozen-graph.js";

/** Who may read a record of a frozen graph; the viewer's rights now, not the saver's then. */
export type CanRead = (owner: OwnerColumns) => boolean;

export function readableBy(actor: Actor): CanRead {
  return (owner) => canSee(actor, owner);
}

/** Owner columns of a frozen webhook: stored with it, or (older snapshots) looked up. */
function ownerOf(
  webhook: FrozenGraph["webhooks"][number],
  looked: ReadonlyMap<string, OwnerColumns>,
): OwnerColumns | undefined {
  if (isHidden(webhook)) return undefined;
  if (webhook.ownerId !== undefined) {
    return { ownerId: webhook.ownerId, organizationId: webhook.organizationId ?? null };
  }
  return looked.get(webhook.id);
}

/**
 * The frozen graph as `canRead` may see it: each node or webhook it may not read becomes a
 * placeholder (its id, a node's family) without name, config, inputs, target URL or filters. A
 * webhook whose owner is unknown (frozen before owners were kept, deleted since) is hidden.
 */
export function redactFrozenGraph(
  graph: FrozenGraph,
  canRead: CanRead,
  webhookOwners: ReadonlyMap<string, OwnerColumns> = new Map(),
): FrozenGraph {
  return {
    ...graph,
    webhooks: graph.webhooks.map((webhook) => {
      const owner = ownerOf(webhook, webhookOwners);
      return owner && canRead(owner) ? webhook : { id: webhook.id, hidden: true as const };
    }),
    nodes: graph.nodes.map((node) =>
      isHidden(node) || canRead(node)
        ? node
        : { id: node.id, family: node.family, hidden: true as const },
    ),
  };
}

/** The ids a redacted graph shows as placeholders. */
function hiddenIdsOf(graph: FrozenGraph): Set<string> {
  return new Set([...graph.webhooks, ...graph.nodes].filter(isHidden).map((entry) => entry.id));
}

/**
 * The canvas layout without what the saver wrote about hidden records: a canvas node showing
 * one keeps its id, type and position, and of its data only the id it names (labels, target
 * URLs and the like were copied from the record).
 */
function redactCanvasNodes(nodes: readonly CanvasNode[], hidden: ReadonlySet<string>) {
  return nodes.map((node) => {
    const { webhookId, nodeId } = node.data;
    const hides =
      (webhookId !== undefined && hidden.has(webhookId)) ||
      (nodeId !== undefined && hidden.has(nodeId));
    if (!hides) return node;
    return {
      ...node,
      data: {
        ...(webhookId === undefined ? {} : { webhookId }),
        ...(nodeId === undefined ? {} : { nodeId }),
      },
    };
  });
}

/** A snapshot with its layout and frozen graph as `actor` may see them. */
export interface CanvasSnapshotView {
  id: string;
  name: string;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  graph: FrozenGraph;
  ownerId: string;
  organizationId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Snapshots as their viewer may see them now (one lookup of webhook owners for all of them, for
 * snapshots frozen before owners were stored): a member removed from an organization no longer
 * reads its records in a snapshot of their own, nor a member another member's personal ones.
 */
export async function visibleSnapshots(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  rows: readonly CanvasSnapshotRow[],
): Promise<CanvasSnapshotView[]> {
  const graphs = rows.map((row) => parseFrozenGraph(row.graph));
  const unowned = graphs.flatMap((graph) =>
    graph.webhooks.filter((w) => !isHidden(w) && w.ownerId === undefined).map((w) => w.id),
  );
  const owners = new Map<string, OwnerColumns>(
    (await findGraphWebhooks(ctx.db.db, unowned)).map((w) => [w.id, w]),
  );
  const canRead = readableBy(actor);
  return rows.map((row, i) => {
    const graph = redactFrozenGraph(graphs[i] as FrozenGraph, canRead, owners);
    return {
      id: row.id,
      name: row.name,
      nodes: redactCanvasNodes(row.nodes as CanvasNode[], hiddenIdsOf(graph)),
      edges: row.edges as CanvasEdge[],
      graph,
      ownerId: row.ownerId,
      organizationId: row.organizationId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  });
}
