import { createRoute, z } from "@hono/zod-openapi";
import { replayEvent } from "@hookflow/services";
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
  operationId: "replayEvent",
  method: "post",
  path: "/api/events/{eventId}/replay",
  tags: [EVENTS_TAG],
  summary: "Replay an event",
  description:
    "Sends an event in a final state (delivered, failed, filtered, cancelled) through delivery " +
    "again: same id, original payload, status back to pending; attempts continue their " +
    "numbering. 409 while the event is still pending or retrying. Needs events:write.",
  security: BEARER,
  middleware: [scopeGuard("events:write")] as const,
  request: { params: eventIdParams("eventId") },
  responses: {
    202: {
      description: "Queued",
      content: { "application/json": { schema: z.object({ ok: z.boolean() }) } },
    },
    ...errorResponses(401, 403, 404, 409, 503),
  },
});

export function registerReplayEvent(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { eventId } = c.req.valid("param");
    await replayEvent(services, c.get("actor"), { eventId });
    return c.json({ ok: true }, 202);
  });
}
