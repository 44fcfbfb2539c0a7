import { createRoute } from "@hono/zod-openapi";
import { listActionRuns } from "@hookflow/db";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { toActionRun } from "./action-runs-body.js";
import { EventDetail, toEventDetail } from "./event-body.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  loadVisibleEvent,
  scopeGuard,
} from "./event-route-kit.js";

const route = createRoute({
  operationId: "getEvent",
  method: "get",
  path: "/api/events/{id}",
  tags: [EVENTS_TAG],
  summary: "Get an event",
  description:
    "The event with its full payload, sanitised headers and the runs of the post-delivery " +
    "actions it fired. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { params: eventIdParams("id") },
  responses: {
    200: { description: "The event", content: { "application/json": { schema: EventDetail } } },
    ...errorResponses(401, 403, 404),
  },
});

export function registerGetEvent(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const event = await loadVisibleEvent(services, c.get("actor"), id);
    const runs = await listActionRuns(services.db, id);
    return c.json(toEventDetail(event, runs.map(toActionRun)), 200);
  });
}
