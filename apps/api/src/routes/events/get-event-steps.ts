import { createRoute, z } from "@hono/zod-openapi";
import { getEventSteps } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";

const EventStep = z
  .object({
    eventId: z.string(),
    nodeType: z.string().openapi({ example: "transform" }),
    nodeId: z.string(),
    nodeName: z.string().optional(),
    status: z.enum(["running", "success", "error", "blocked"]),
    statusCode: z.number().int().optional(),
    durationMs: z.number().optional(),
    lastPayload: z.unknown().optional(),
    detail: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "An AI node's token usage and tool calls; a dry run's request" }),
    error: z.string().optional(),
    at: z.string().openapi({ example: "2030-01-01T00:00:00.000Z" }),
  })
  .openapi("EventStep");

const route = createRoute({
  operationId: "listEventSteps",
  method: "get",
  path: "/api/events/{id}/steps",
  tags: [EVENTS_TAG],
  summary: "The steps of an event's node graph",
  description:
    "Every step the event's node graph recorded, oldest first: each node's `running`, then " +
    "`success`, `error` (with the error) or `blocked` (with the reason), so the event's history " +
    "shows where it went and why. Delivery attempts are listed under /deliveries. Needs events:read.",
  security: BEARER,
  middleware: [scopeGuard("events:read")] as const,
  request: { params: eventIdParams("id") },
  responses: {
    200: {
      description: "The steps",
      content: { "application/json": { schema: z.array(EventStep) } },
    },
    ...errorResponses(401, 403, 404),
  },
});

type EventStepBody = z.infer<typeof EventStep>;

export function registerGetEventSteps(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const rows = await getEventSteps(services, c.get("actor"), { id });
    const steps = rows.map(
      (row): EventStepBody => ({
        eventId: row.eventId,
        nodeType: row.nodeType,
        nodeId: row.nodeId,
        ...(row.nodeName === null ? {} : { nodeName: row.nodeName }),
        status: row.status as EventStepBody["status"],
        ...(row.statusCode === null ? {} : { statusCode: row.statusCode }),
        ...(row.durationMs === null ? {} : { durationMs: row.durationMs }),
        ...(row.lastPayload === null ? {} : { lastPayload: row.lastPayload }),
        ...(row.detail ? { detail: row.detail } : {}),
        ...(row.error === null ? {} : { error: row.error }),
        at: row.at.toISOString(),
      }),
    );
    return c.json(steps, 200);
  });
}
