import { insertCanvasSnapshot, withGraphWriteLock } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { ownershipOf } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type CanvasEdge, type CanvasNode, checkCanvasEdges } from "./canvas-layout.js";
import { freezeCanvas } from "./freeze-canvas.js";
import { snapshotViewFor } from "./load-snapshot.js";
import type { CanvasSnapshotView } from "./redact-snapshot.js";

export interface CreateCanvasSnapshotInput {
  name: string;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

/**
 * Stores a canvas layout and freezes the graph it shows (docs/decisions.md, "Node families and
 * canvas"); answers it as the actor may see it.
 */
export async function createCanvasSnapshot(
  ctx: ServiceContext,
  actor: Actor,
  input: CreateCanvasSnapshotInput,
): Promise<CanvasSnapshotView> {
  checkCanvasEdges(input.nodes, input.edges);
  const now = ctx.now();
  // The freeze locks the scopes of the records it reads (see freezeCanvas).
  const row = await withGraphWriteLock(ctx.db.db, [], async (tx) =>
    insertCanvasSnapshot(tx, {
      id: newId("canvasSnapshot", now.getTime()),
      ...ownershipOf(actor),
      name: input.name,
      nodes: input.nodes,
      edges: input.edges,
      graph: await freezeCanvas(tx, ctx.db, actor, input.nodes, now),
      createdAt: now,
      updatedAt: now,
    }),
  );
  return snapshotViewFor(ctx, actor, row);
}
