import { createRoute } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import {
  CanvasSnapshotResponse,
  loadVisibleSnapshot,
  SNAPSHOT_EXAMPLE_ID,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  snapshotResponseFor,
} from "./snapshot-records.js";

const route = createRoute({
  operationId: "getCanvasSnapshot",
  method: "get",
  path: `${SNAPSHOT_PATH}/{id}`,
  tags: [SNAPSHOTS_TAG],
  summary: "Get a canvas snapshot",
  description:
    "The layout and the frozen graph, as the caller may see them now: records the caller " +
    "cannot read are placeholders without config, name, target URL or filters, and canvas " +
    "nodes showing them keep only the id they name. Needs canvas:read.",
  security: BEARER,
  middleware: [scopeGuard("canvas:read")] as const,
  request: { params: idParams(SNAPSHOT_EXAMPLE_ID) },
  responses: {
    200: {
      description: "The snapshot",
      content: { "application/json": { schema: CanvasSnapshotResponse } },
    },
    ...errorResponses("Canvas snapshot", 401, 403, 404),
  },
});

export function registerGetCanvasSnapshot(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const row = await loadVisibleSnapshot(services, actor, c.req.valid("param").id);
    return c.json(await snapshotResponseFor(services, actor, row), 200);
  });
}
