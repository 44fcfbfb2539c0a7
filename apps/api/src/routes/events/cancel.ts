import { createRoute } from "@hono/zod-openapi";
import { cancelEvent } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";

const route = createRoute({
  operationId: "cancelEvent",
  method: "post",
  path: "/api/events/{eventId}/cancel",
  tags: [EVENTS_TAG],
  summary: "Cancel a pending or retrying event",
  description:
    "Status becomes cancelled and the queued delivery job is removed. Irreversible, but the " +
    "event can be replayed. 409 unless the event is pending or retrying. Needs events:write.",
  security: BEARER,
  middleware: [scopeGuard("events:write")] as const,
  request: { params: eventIdParams("eventId") },
  responses: {
    204: { description: "Cancelled" },
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerCancelEvent(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { eventId } = c.req.valid("param");
    await cancelEvent(services, c.get("actor"), { eventId });
    return c.body(null, 204);
  });
}
