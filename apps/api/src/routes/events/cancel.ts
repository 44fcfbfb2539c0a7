import { createRoute } from "@hono/zod-openapi";
import { cancelEvent } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import { createStepPublisher } from "@hookflow/queue";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { removeEventJobs } from "./event-jobs.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  loadVisibleEvent,
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
    await loadVisibleEvent(services, c.get("actor"), eventId);
    const cancelled = await cancelEvent(services.db.db, eventId, services.now());
    if (!cancelled) throw new ConflictError("Only a pending or retrying event can be cancelled");
    try {
      await removeEventJobs(services.queues, eventId);
    } catch (error) {
      // The cancel is committed; a job left behind finds the event cancelled and stops.
      services.logger.warn(
        { err: error, eventId },
        "could not remove the job of a cancelled event",
      );
    }
    try {
      // Streams and sync-mode requests watching the event end here.
      await createStepPublisher({ redis: services.redis, keys: services.keys }).publish(eventId, {
        kind: "done",
        done: {
          eventId,
          status: 200,
          body: { deliveryStatus: "cancelled", statusCode: 0, latencyMs: 0 },
        },
      });
    } catch (error) {
      services.logger.warn({ err: error, eventId }, "could not publish done for a cancelled event");
    }
    return c.body(null, 204);
  });
}
