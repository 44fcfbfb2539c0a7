import { z } from "@hono/zod-openapi";
import { type CanvasSnapshotRow, findCanvasSnapshotById } from "@hookflow/db";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import type { ApiServices } from "../../services.js";
import { FrozenGraph } from "./frozen-graph.js";
import { type VisibleSnapshot, visibleSnapshots } from "./redact-snapshot.js";
import { CanvasEdge, CanvasNode } from "./snapshot-input.js";

export const SNAPSHOTS_TAG = "Canvas snapshots";
export const SNAPSHOT_PATH = "/api/canvas-snapshots";
export const SNAPSHOT_EXAMPLE_ID = "cvs_01J9Z3K8Q4T6V2X7Y5W0A1B2C3";

export const CanvasSnapshotResponse = z
  .object({
    id: z.string(),
    _id: z.string(),
    name: z.string(),
    nodes: z.array(CanvasNode),
    edges: z.array(CanvasEdge),
    graph: FrozenGraph.openapi({
      description:
        "The webhooks and nodes the canvas showed, frozen when nodes were last saved. Records " +
        "the viewer may not read (now) are placeholders: `{id, hidden: true}` (nodes also keep " +
        "their family), without name, config, inputs, target URL or filters",
    }),
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CanvasSnapshot");
export type CanvasSnapshotResponse = z.infer<typeof CanvasSnapshotResponse>;

/** The answer for a snapshot as its viewer may see it (see `visibleSnapshots`). */
export function toSnapshotResponse(snapshot: VisibleSnapshot): CanvasSnapshotResponse {
  const { row } = snapshot;
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    nodes: snapshot.nodes,
    edges: row.edges as CanvasEdge[],
    graph: snapshot.graph,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One snapshot answered as `actor` may see it. */
export async function snapshotResponseFor(
  services: ApiServices,
  actor: Actor,
  row: CanvasSnapshotRow,
): Promise<CanvasSnapshotResponse> {
  const [visible] = await visibleSnapshots(services, actor, [row]);
  return toSnapshotResponse(visible as VisibleSnapshot);
}

/** The snapshot if the actor may see it: 404 when absent, 403 when it is someone else's. */
export async function loadVisibleSnapshot(
  services: ApiServices,
  actor: Actor,
  id: string,
): Promise<CanvasSnapshotRow> {
  return assertVisible(actor, await findCanvasSnapshotById(services.db.db, id), "Canvas snapshot");
}
