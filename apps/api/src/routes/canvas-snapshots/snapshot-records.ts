import { z } from "@hono/zod-openapi";
import { type CanvasSnapshotView, FrozenGraph } from "@hookflow/services";
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
    // The FrozenGraph component, with its description (@hookflow/services).
    graph: FrozenGraph,
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CanvasSnapshot");
export type CanvasSnapshotResponse = z.infer<typeof CanvasSnapshotResponse>;

/** The answer for a snapshot as its viewer may see it (the verbs decide what that is). */
export function toSnapshotResponse(snapshot: CanvasSnapshotView): CanvasSnapshotResponse {
  return {
    id: snapshot.id,
    _id: snapshot.id,
    name: snapshot.name,
    nodes: snapshot.nodes,
    edges: snapshot.edges,
    graph: snapshot.graph,
    ownerId: snapshot.ownerId,
    organizationId: snapshot.organizationId,
    createdAt: snapshot.createdAt.toISOString(),
    updatedAt: snapshot.updatedAt.toISOString(),
  };
}
