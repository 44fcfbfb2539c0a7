import { createRoute, z } from "@hono/zod-openapi";
import { buildTimeTravelReport, timeTravel } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { TimeTravelReport } from "../canvas-snapshots/dry-run-report.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  scopeGuard,
} from "./event-route-kit.js";

const TimeTravelInput = z
  .object({ snapshotId: z.string().trim().min(1).max(100) })
  .openapi("TimeTravelInput");

const route = createRoute({
  operationId: "timeTravelEvent",
  method: "post",
  path: "/api/events/{id}/time-travel",
  tags: [EVENTS_TAG],
  summary: "Dry-run an event through a canvas snapshot",
  description:
    "Runs the event's stored payload through the graph the snapshot froze (its payload filters " +
    "and every node reachable from the event's webhook, as they were when the snapshot was " +
    "saved) with every side effect off: nothing is delivered, forwarded, parked, counted or " +
    "stored, and the event is not changed. Transforms run for real in their sandbox, under " +
    "their limits (JavaScript 50 ms, jq 100 ms and 128 MB, Handlebars 2 ms on the server's " +
    "event loop then 100 ms on a worker thread), and validator patterns run on a linear-time " +
    "engine (checks costlier than about 2 ms off the event loop, 100 ms at most); a node over " +
    "a limit shows as failed with the limit in its error; rate " +
    "limiters assume a free slot; delays and approvals report where the event would wait. " +
    "Each step's result is passed, forwarded, blocked, failed, parked or would_deliver. 400 " +
    "when the snapshot does not show the event's webhook; 403 when the event would pass a " +
    "node of the snapshot the caller may not read. Needs events:write.",
  security: BEARER,
  middleware: [scopeGuard("events:write")] as const,
  request: {
    params: eventIdParams("id"),
    body: { content: { "application/json": { schema: TimeTravelInput } }, required: true },
  },
  responses: {
    200: {
      description: "What would happen",
      content: { "application/json": { schema: TimeTravelReport } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerTimeTravel(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const { id } = c.req.valid("param");
    const { snapshotId } = c.req.valid("json");
    const { run, webhook } = await timeTravel(services, actor, { eventId: id, snapshotId });
    return c.json(buildTimeTravelReport(run, webhook), 200);
  });
}
