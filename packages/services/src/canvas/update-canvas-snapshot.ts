import {
  type CanvasSnapshotPatch,
  updateCanvasSnapshot as updateSnapshotRow,
  withGraphWriteLock,
} from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type CanvasEdge, type CanvasNode, checkCanvasEdges } from "./canvas-layout.js";
import { freezeCanvas } from "./freeze-canvas.js";
import { loadVisibleSnapshot, snapshotViewFor } from "./load-snapshot.js";
import type { CanvasSnapshotView } from "./redact-snapshot.js";

export interface UpdateCanvasSnapshotInput {
  id: string;
  name?: string | undefined;
  nodes?: CanvasNode[] | undefined;
  edges?: CanvasEdge[] | undefined;
}

/**
 * Only the fields given change. New nodes or edges are checked as a create checks them and the
 * graph is frozen again, as it is now; renaming keeps the frozen graph.
 */
export async function updateCanvasSnapshot(
  ctx: ServiceContext,
  actor: Actor,
  input: UpdateCanvasSnapshotInput,
): Promise<CanvasSnapshotView> {
  const { id } = input;
  const current = await loadVisibleSnapshot(ctx, actor, id);
  const nodes = input.nodes ?? (current.nodes as CanvasNode[]);
  const edges = input.edges ?? (current.edges as CanvasEdge[]);
  const relayout = input.nodes !== undefined || input.edges !== undefined;
  if (relayout) checkCanvasEdges(nodes, edges);
  const now = ctx.now();
  const row = await withGraphWriteLock(ctx.db.db, [], async (tx) => {
    const patch: CanvasSnapshotPatch = { updatedAt: now };
    if (input.name !== undefined) patch.name = input.name;
    if (relayout) {
      patch.nodes = nodes;
      patch.edges = edges;
      patch.graph = await freezeCanvas(tx, ctx.db, actor, nodes, now);
    }
    return updateSnapshotRow(tx, id, patch);
  });
  if (!row) throw new NotFoundError("Canvas snapshot not found");
  return snapshotViewFor(ctx, actor, row);
}
