import { createRoute, z } from "@hono/zod-openapi";
import { replayFailedEventsOfWebhook } from "@hookflow/db";
import { INLINE_BODY_MAX_BYTES } from "@hookflow/queue";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { enqueueReopenedEvents } from "./event-jobs.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventScopeFor,
  scopeGuard,
} from "./event-route-kit.js";

const route = createRoute({
  method: "post",
  path: "/api/events/replay-all",
  tags: [EVENTS_TAG],
  summary: "Replay every failed event of a webhook",
  description:
    "Every event of the webhook whose status is failed goes back to pending and is queued, in " +
    "arrival order. Needs events:write.",
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
    await eventScopeFor(services, c.get("actor"), webhookId);
    const reopened = await replayFailedEventsOfWebhook(
      services.db.db,
      webhookId,
      services.now(),
      INLINE_BODY_MAX_BYTES,
    );
    if (reopened.length > 0) await enqueueReopenedEvents(services.queues, reopened);
    return c.json({ queued: reopened.length }, 202);
  });
}
