import { createRoute } from "@hono/zod-openapi";
import { createCanvasSnapshot } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, scopeGuard } from "../nodes/resource-route-kit.js";
import { CreateCanvasSnapshotInput } from "./snapshot-input.js";
import {
  CanvasSnapshotResponse,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  toSnapshotResponse,
} from "./snapshot-records.js";

const route = createRoute({
  operationId: "createCanvasSnapshot",
  method: "post",
  path: SNAPSHOT_PATH,
  tags: [SNAPSHOTS_TAG],
  summary: "Save a canvas snapshot",
  description:
    "Stores the canvas layout (nodes in the canvas node form, edges between them) and " +
    "freezes the graph it shows: the webhooks and nodes named by the nodes' data.webhookId and " +
    "data.nodeId, and everything downstream of them, as they are now. name is required (400 " +
    "without it). Each named record must exist and be visible (400 naming the field); edges " +
    "must join canvas nodes. A record of the graph the caller cannot read is frozen as a " +
    "placeholder (its id; a node's family), and every read shows only what its reader may " +
    "read. Time travel replays events through the frozen graph. Needs canvas:write.",
  security: BEARER,
  middleware: [scopeGuard("canvas:write")] as const,
  request: {
    body: {
      content: { "application/json": { schema: CreateCanvasSnapshotInput } },
      required: true,
    },
  },
  responses: {
    201: {
      description: "The new snapshot",
      content: { "application/json": { schema: CanvasSnapshotResponse } },
    },
    ...errorResponses("Canvas snapshot", 400, 401, 403),
  },
});

export function registerCreateCanvasSnapshot(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const snapshot = await createCanvasSnapshot(services, c.get("actor"), c.req.valid("json"));
    return c.json(toSnapshotResponse(snapshot), 201);
  });
}
