import { createRoute } from "@hono/zod-openapi";
import { updateCanvasSnapshot } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, idParams, scopeGuard } from "../nodes/resource-route-kit.js";
import { UpdateCanvasSnapshotInput } from "./snapshot-input.js";
import {
  CanvasSnapshotResponse,
  SNAPSHOT_EXAMPLE_ID,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  toSnapshotResponse,
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
    const snapshot = await updateCanvasSnapshot(services, c.get("actor"), {
      ...c.req.valid("json"),
      id: c.req.valid("param").id,
    });
    return c.json(toSnapshotResponse(snapshot), 200);
  });
}
