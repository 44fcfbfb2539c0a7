import { createRoute, z } from "@hono/zod-openapi";
import { listCanvasSnapshots } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  PageQuery,
  scopeGuard,
  TotalCountHeader,
} from "../nodes/resource-route-kit.js";
import {
  CanvasSnapshotResponse,
  SNAPSHOT_PATH,
  SNAPSHOTS_TAG,
  toSnapshotResponse,
} from "./snapshot-records.js";

const route = createRoute({
  operationId: "listCanvasSnapshots",
  method: "get",
  path: SNAPSHOT_PATH,
  tags: [SNAPSHOTS_TAG],
  summary: "List canvas snapshots",
  description:
    "Snapshots of the acting context, newest first, each as the caller may see it (records the " +
    "caller cannot read are placeholders). A plain array; the total is in the X-Total-Count " +
    "header. page defaults to 1, limit to 20 (max 100). Needs canvas:read.",
  security: BEARER,
  middleware: [scopeGuard("canvas:read")] as const,
  request: { query: PageQuery },
  responses: {
    200: {
      description: "One page of snapshots",
      headers: TotalCountHeader,
      content: { "application/json": { schema: z.array(CanvasSnapshotResponse) } },
    },
    ...errorResponses("Canvas snapshot", 400, 401, 403),
  },
});

export function registerListCanvasSnapshots(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { items, total } = await listCanvasSnapshots(
      services,
      c.get("actor"),
      c.req.valid("query"),
    );
    c.header("X-Total-Count", String(total));
    return c.json(items.map(toSnapshotResponse), 200);
  });
}
