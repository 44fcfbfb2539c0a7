import { createRoute } from "@hono/zod-openapi";
import { deleteTarget } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  TARGETS_TAG,
  TargetIdParams,
} from "./target-route-kit.js";

const route = createRoute({
  operationId: "deleteAdditionalTarget",
  method: "delete",
  path: "/api/additional-targets/{id}",
  tags: [TARGETS_TAG],
  summary: "Delete an additional target",
  description:
    "Deletes the target and its links to webhooks; deliveries to it still queued end without " +
    "a request. Its recorded attempts stay with their events. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: TargetIdParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(401, 403, 404),
  },
});

export function registerDeleteTarget(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    await deleteTarget(services, c.get("actor"), { id: c.req.valid("param").id });
    return c.body(null, 204);
  });
}
