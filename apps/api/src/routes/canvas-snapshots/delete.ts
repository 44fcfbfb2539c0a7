import { createRoute } from "@hono/zod-openapi";
import { deleteCanvasSnapshot } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import { SNAPSHOT_EXAMPLE_ID, SNAPSHOT_PATH, SNAPSHOTS_TAG } from "./snapshot-records.js";

const route = createRoute({
  operationId: "deleteCanvasSnapshot",
  method: "delete",
  path: `${SNAPSHOT_PATH}/{id}`,
  tags: [SNAPSHOTS_TAG],
  summary: "Delete a canvas snapshot",
  description:
    "Deletes the layout and its frozen graph; live nodes are untouched. Needs canvas:write.",
  security: BEARER,
  middleware: [scopeGuard("canvas:write")] as const,
  request: { params: idParams(SNAPSHOT_EXAMPLE_ID) },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses("Canvas snapshot", 401, 403, 404),
  },
});

export function registerDeleteCanvasSnapshot(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    await deleteCanvasSnapshot(services, c.get("actor"), c.req.valid("param"));
    return c.body(null, 204);
  });
}
