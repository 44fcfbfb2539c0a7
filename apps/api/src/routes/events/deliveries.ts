import { createRoute, z } from "@hono/zod-openapi";
import { listEventDeliveries } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { DeliveryAttempt, toDeliveryAttempt } from "./event-body.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";

const route = createRoute({
  operationId: "listEventDeliveries",
  method: "get",
  path: "/api/events/{eventId}/deliveries",
  tags: [EVENTS_TAG],
  summary: "Delivery attempts of an event",
  description: "Every recorded attempt, oldest first. Needs deliveries:read.",
  security: BEARER,
  middleware: [scopeGuard("deliveries:read")] as const,
  request: { params: eventIdParams("eventId") },
  responses: {
    200: {
      description: "Attempts",
      content: { "application/json": { schema: z.array(DeliveryAttempt) } },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerEventDeliveries(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { eventId } = c.req.valid("param");
    const attempts = await listEventDeliveries(services, c.get("actor"), { eventId });
    return c.json(attempts.map(toDeliveryAttempt), 200);
  });
}
