import { createRoute, z } from "@hono/zod-openapi";
import { ForbiddenError, ValidationError } from "@hookflow/domain";
import { createDryRunPorts, entryOf, reachableFrom, runPipeline } from "@hookflow/pipeline";
import { canSee } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { buildTimeTravelReport, TimeTravelReport } from "../canvas-snapshots/dry-run-report.js";
import { parseFrozenGraph, thawGraph } from "../canvas-snapshots/frozen-graph.js";
import { loadVisibleSnapshot } from "../canvas-snapshots/snapshot-records.js";
import { payloadOf } from "./event-body.js";
import {
  BEARER,
  EVENTS_TAG,
  errorResponses,
  eventIdParams,
  loadVisibleEvent,
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
    const event = await loadVisibleEvent(services, actor, id);
    const snapshot = await loadVisibleSnapshot(services, actor, snapshotId);
    const { graph, webhooks } = thawGraph(parseFrozenGraph(snapshot.graph));
    const webhook = webhooks.get(event.webhookId);
    if (!webhook) {
      throw new ValidationError(
        `snapshotId: Snapshot ${snapshot.id} does not show webhook ${event.webhookId}`,
      );
    }
    // A scheduled workflow's tick enters at the workflow when nodes take it (as in the worker).
    const entry = entryOf(graph, event.entryNodeId);
    const order = reachableFrom(graph, entry ?? event.webhookId);
    const unreadable = order.filter((nodeId) => {
      const node = graph.nodes.get(nodeId);
      return node !== undefined && !canSee(actor, node);
    });
    if (unreadable.length > 0) {
      // Running them would show what they do (a transform's output, say) to someone who may not
      // read them: a snapshot saved before graphs were kept to one owner, or by someone else.
      throw new ForbiddenError(
        `Snapshot ${snapshot.id} runs webhook ${event.webhookId}'s events through nodes you ` +
          `cannot read: ${unreadable.join(", ")}`,
      );
    }
    const ports = createDryRunPorts({
      transform: services.transformPort(),
      patterns: services.patternPort(),
      now: () => services.now().getTime(),
      delayScale: services.config.delayScale,
    });
    const run = await runPipeline(
      {
        eventId: event.id,
        webhookId: event.webhookId,
        eventType: event.eventType,
        runId: `time-travel:${snapshot.id}`,
        graph,
        order,
        ...(entry ? { entry } : {}),
        start: {
          kind: "webhook",
          payload: payloadOf(event.body),
          payloadText: event.body,
          payloadFilters: webhook.payloadFilters,
        },
      },
      ports,
    );
    return c.json(buildTimeTravelReport(run, webhook), 200);
  });
}
