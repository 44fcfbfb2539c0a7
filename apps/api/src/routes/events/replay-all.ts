import { createRoute, z } from "@hono/zod-openapi";
import { replayAllFailed } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { type ApiServices, REPLAY_ALL_BATCH_SIZE } from "../../services.js";
import { BEARER, EVENTS_TAG, errorResponses, scopeGuard } from "./event-route-kit.js";

const route = createRoute({
  operationId: "replayAllEvents",
  method: "post",
  path: "/api/events/replay-all",
  tags: [EVENTS_TAG],
  summary: "Replay every failed event of a webhook",
  description:
    "Every event of the webhook whose status is failed goes back to pending and is queued, in " +
    `arrival order. Events are reopened and queued in batches of ${REPLAY_ALL_BATCH_SIZE}, so any number of them ` +
    "is replayed in bounded memory; events arriving after the request are left alone. If the " +
    "queue fails midway (503), the events already reopened stay pending and the sweeper queues " +
    "them. Needs events:write.",
  security: BEARER,
  middleware: [scopeGuard("events:write")] as const,
  request: {
    query: z.object({
      webhookId: z
        .string()
        .min(1)
        .openapi({ param: { name: "webhookId", in: "query", required: true } }),
    }),
  },
  responses: {
    202: {
      description: "How many events were queued",
      content: { "application/json": { schema: z.object({ queued: z.number().int() }) } },
    },
    ...errorResponses(400, 401, 403, 404, 503),
  },
});

export function registerReplayAllEvents(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { webhookId } = c.req.valid("query");
    return c.json(await replayAllFailed(services, c.get("actor"), { webhookId }), 202);
  });
}
