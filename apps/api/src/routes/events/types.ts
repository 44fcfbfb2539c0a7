import { createRoute, z } from "@hono/zod-openapi";
import { listEventTypes } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  scopeGuard,
  WebhookIdQuery,
} from "./event-route-kit.js";

const route = createRoute({
  operationId: "listEventTypes",
  method: "get",
  path: "/api/events/types",
  tags: [EVENTS_TAG],
  summary: "Distinct event types",
  description:
    "The distinct top-level `type`/`event` values of the visible events (of one webhook when " +
    "webhookId is given), sorted. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { query: z.object({ webhookId: WebhookIdQuery }) },
  responses: {
    200: {
      description: "Event types",
      content: { "application/json": { schema: z.array(z.string()) } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerEventTypes(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("query");
    return c.json(await listEventTypes(services, c.get("actor"), { webhookId }), 200);
  });
}
