import { createRoute, z } from "@hono/zod-openapi";
import { eventStats } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  scopeGuard,
  WebhookIdQuery,
} from "./event-route-kit.js";

const EventStats = z
  .object({
    total: z.number().int(),
    delivered: z.number().int(),
    failed: z.number().int(),
    successRate: z.number().openapi({ description: "delivered / total * 100, one decimal" }),
  })
  .openapi("EventStats");

const route = createRoute({
  operationId: "getEventStats",
  method: "get",
  path: "/api/events/stats",
  tags: [EVENTS_TAG],
  summary: "Event counts and success rate",
  description:
    "Counts of the visible events (of one webhook when webhookId is given). successRate is " +
    "delivered / total * 100 rounded to one decimal, 0 without events. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { query: z.object({ webhookId: WebhookIdQuery }) },
  responses: {
    200: { description: "Statistics", content: { "application/json": { schema: EventStats } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerEventStats(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("query");
    return c.json(await eventStats(services, c.get("actor"), { webhookId }), 200);
  });
}
