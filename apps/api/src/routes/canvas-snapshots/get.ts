import { createRoute } from "@hono/zod-openapi";
import { getCanvasSnapshot } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import {
  CanvasSnapshotResponse,
  SNAPSHOT_EXAMPLE_ID,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  toSnapshotResponse,
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
    const snapshot = await getCanvasSnapshot(services, c.get("actor"), c.req.valid("param"));
    return c.json(toSnapshotResponse(snapshot), 200);
  });
}
