import { z } from "@hono/zod-openapi";
import { type CanvasSnapshotRow, findCanvasSnapshotById } from "@hookflow/db";
import { assertVisible } from "../../auth/access.js";
import type { Actor } from "../../auth/actor.js";
import type { ApiServices } from "../../services.js";
import { FrozenGraph, parseFrozenGraph } from "./frozen-graph.js";
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
      description: "The webhooks and nodes the canvas showed, frozen when nodes were last saved",
    }),
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CanvasSnapshot");
export type CanvasSnapshotResponse = z.infer<typeof CanvasSnapshotResponse>;

export function toSnapshotResponse(row: CanvasSnapshotRow): CanvasSnapshotResponse {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    nodes: row.nodes as CanvasNode[],
    edges: row.edges as CanvasEdge[],
    graph: parseFrozenGraph(row.graph),
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The snapshot if the actor may see it: 404 when absent, 403 when it is someone else's. */
export async function loadVisibleSnapshot(
  services: ApiServices,
  actor: Actor,
  id: string,
): Promise<CanvasSnapshotRow> {
  return assertVisible(actor, await findCanvasSnapshotById(services.db.db, id), "Canvas snapshot");
}
