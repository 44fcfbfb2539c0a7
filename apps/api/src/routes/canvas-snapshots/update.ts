import { createRoute } from "@hono/zod-openapi";
import { type CanvasSnapshotPatch, updateCanvasSnapshot, withGraphWriteLock } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import { checkCanvasEdges, freezeCanvas } from "./freeze-canvas.js";
import { type CanvasEdge, type CanvasNode, UpdateCanvasSnapshotInput } from "./snapshot-input.js";
import {
  CanvasSnapshotResponse,
  loadVisibleSnapshot,
  SNAPSHOT_EXAMPLE_ID,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  snapshotResponseFor,
} from "./snapshot-records.js";

const route = createRoute({
  operationId: "updateCanvasSnapshot",
  method: "patch",
  path: `${SNAPSHOT_PATH}/{id}`,
  tags: [SNAPSHOTS_TAG],
  summary: "Update a canvas snapshot",
  description:
    "Only the fields given change. Giving nodes or edges checks the layout as a create does and " +
    "freezes the graph again, as it is now (records the caller cannot read as placeholders); " +
    "renaming keeps the frozen graph. The answer shows only what the caller may read. Needs " +
    "canvas:write.",
  security: BEARER,
  middleware: [scopeGuard("canvas:write")] as const,
  request: {
    params: idParams(SNAPSHOT_EXAMPLE_ID),
    body: {
      content: { "application/json": { schema: UpdateCanvasSnapshotInput } },
      required: true,
    },
  },
  responses: {
    200: {
      description: "The updated snapshot",
      content: { "application/json": { schema: CanvasSnapshotResponse } },
    },
    ...errorResponses("Canvas snapshot", 400, 401, 403, 404),
  },
});

export function registerUpdateCanvasSnapshot(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const { id } = c.req.valid("param");
    const input = c.req.valid("json");
    const current = await loadVisibleSnapshot(services, actor, id);
    const nodes = input.nodes ?? (current.nodes as CanvasNode[]);
    const edges = input.edges ?? (current.edges as CanvasEdge[]);
    const relayout = input.nodes !== undefined || input.edges !== undefined;
    if (relayout) checkCanvasEdges(nodes, edges);
    const now = services.now();
    const row = await withGraphWriteLock(services.db.db, [], async (tx) => {
      const patch: CanvasSnapshotPatch = { updatedAt: now };
      if (input.name !== undefined) patch.name = input.name;
      if (relayout) {
        patch.nodes = nodes;
        patch.edges = edges;
        patch.graph = await freezeCanvas(tx, services.db, actor, nodes, now);
      }
      return updateCanvasSnapshot(tx, id, patch);
    });
    if (!row) throw new NotFoundError("Canvas snapshot not found");
    return c.json(await snapshotResponseFor(services, actor, row), 200);
  });
}
