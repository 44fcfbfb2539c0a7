import { createRoute, z } from "@hono/zod-openapi";
import { eventLatency } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  scopeGuard,
  WebhookIdQuery,
} from "./event-route-kit.js";

const Latency = z
  .object({
    avg: z.number().openapi({ description: "Mean latency in ms" }),
    p95: z.number().openapi({ description: "95th percentile (continuous) in ms" }),
    p99: z.number().openapi({ description: "99th percentile (continuous) in ms" }),
  })
  .openapi("DeliveryLatency");

const route = createRoute({
  operationId: "getEventLatency",
  method: "get",
  path: "/api/events/latency",
  tags: [EVENTS_TAG],
  summary: "Latency of successful deliveries",
  description:
    "Mean, p95 and p99 latency in milliseconds (one decimal) of the successful delivery " +
    "attempts of the visible webhooks (of one webhook when webhookId is given); 0 when there " +
    "is none. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { query: z.object({ webhookId: WebhookIdQuery }) },
  responses: {
    200: { description: "Latency", content: { "application/json": { schema: Latency } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerEventLatency(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("query");
    return c.json(await eventLatency(services, c.get("actor"), { webhookId }), 200);
  });
}
