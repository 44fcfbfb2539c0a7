import { z } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import { errorAnswer } from "../../http/route-kit.js";

const StepMessage = z
  .object({
    eventId: z.string(),
    nodeType: z.string(),
    nodeId: z.string(),
    nodeName: z.string().optional(),
    status: z.enum(["running", "success", "error", "blocked"]),
    statusCode: z.number().int().optional(),
    durationMs: z.number().optional(),
    lastPayload: z.unknown().optional(),
    error: z.string().optional(),
  })
  .meta({ id: "PipelineStep" });

/**
 * The two public routes served by other roles (the ingress and the stream app), documented here
 * so the one OpenAPI document describes the whole interface. No handler: in single-process mode
 * the router sends these paths to their own apps before the api sees them.
 */
export function registerEdgeRouteDocs(app: ApiApp): void {
  app.openAPIRegistry.registerPath({
    operationId: "sendEvent",
    method: "post",
    path: "/api/in/{token}",
    tags: ["Ingress"],
    summary: "Send an event to a webhook",
    description:
      "Any valid JSON body. Served by the ingress role. The event is committed to Postgres " +
      "before the answer and queued for delivery right after it (an event whose queueing fails " +
      "is queued by the sweeper). Response mode `sync` waits for the pipeline (at most 120 s) and answers 200 " +
      "with `{eventId, syncStatus, steps, response?, awaitingApproval?, awaitingMerge?, " +
      "delayed?, streamToken}`; a parked event or inactive webhook answers 202 at once. After " +
      "a wait the `streamToken` is issued with the answer (valid 120 s from then), so a caller " +
      "can follow the event after a 408.",
    security: [],
    request: { params: z.object({ token: z.string() }) },
    responses: {
      200: {
        description: "Sync mode result, or a duplicate (`deduplicated`, `originalEventId`)",
        content: { "application/json": { schema: z.record(z.string(), z.unknown()) } },
      },
      202: {
        description: "Accepted and durable",
        content: {
          "application/json": {
            schema: z.object({ eventId: z.string(), streamToken: z.string() }),
          },
        },
      },
      400: errorAnswer("Body is not valid JSON"),
      401: errorAnswer("Missing or invalid incoming signature"),
      404: errorAnswer("Unknown ingress token"),
      409: errorAnswer(
        "Deduplication on: a request with the same key holds the claim and has not stored its " +
          "event yet (Retry-After set); the retry is answered as a duplicate once it is stored, " +
          "or stored once the claim runs out",
      ),
      413: errorAnswer("Body larger than MAX_PAYLOAD_BYTES"),
      429: errorAnswer("Per-token ingress rate limit exceeded (Retry-After set)"),
      503: errorAnswer("Postgres or Redis unreachable; the event was not accepted"),
    },
  });
  app.openAPIRegistry.registerPath({
    operationId: "streamEvent",
    method: "get",
    path: "/api/events/{eventId}/stream",
    tags: ["Events"],
    summary: "Live pipeline steps of an event (server-sent events)",
    description:
      "Served by the stream role. Needs the `streamToken` the ingress returned (valid 120 s, " +
      "this event only). Sends the steps so far, then live ones as `event: step` (data: a " +
      "PipelineStep), then `event: done` with `{status, body: {deliveryStatus, statusCode, " +
      "latencyMs}}` and closes, or `event: timeout` after 120 s. Every message has an `id:`; " +
      "reconnect with `Last-Event-ID` to resume. Heartbeat comments every 15 s. One stream " +
      "token holds at most STREAM_MAX_PER_TOKEN streams at once (default 5, across stream " +
      "processes) and one process STREAM_MAX_PER_PROCESS (default 10000); beyond, 429.",
    security: [],
    request: {
      params: z.object({ eventId: z.string() }),
      query: z.object({ token: z.string() }),
    },
    responses: {
      200: {
        description: "An event stream",
        content: { "text/event-stream": { schema: StepMessage } },
      },
      204: { description: "Resumed after `done`: nothing more will come" },
      401: errorAnswer("Invalid, expired or wrong-event stream token"),
      429: errorAnswer(
        "The token already holds STREAM_MAX_PER_TOKEN open streams, or this process " +
          "STREAM_MAX_PER_PROCESS (Retry-After set)",
      ),
      503: errorAnswer("Redis unreachable: streams cannot be counted or fed"),
    },
  });
  registerWebhookStreamDocs(app);
}

const WebhookStreamMessage = z
  .object({
    eventId: z.string(),
    webhookId: z.string().optional(),
    feedId: z.string().optional(),
    seq: z.number().int().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: "WebhookStreamMessage" });

/** `GET /api/webhooks/{id}/stream`, served by the stream role. */
function registerWebhookStreamDocs(app: ApiApp): void {
  app.openAPIRegistry.registerPath({
    operationId: "streamWebhook",
    method: "get",
    path: "/api/webhooks/{id}/stream",
    tags: ["Webhooks"],
    summary: "Live events of a webhook and their steps (server-sent events)",
    description:
      "Served by the stream role. Needs a webhook stream token from " +
      "`POST /api/webhooks/{id}/stream-token` (valid 5 minutes, this webhook only), in " +
      "`Authorization: Bearer` or `?token=` (EventSource). Sends `event: event` with " +
      "`{eventId, webhookId, feedId}` and `id: <feedId>` when a worker starts an event of the " +
      "webhook (again on a replay), then that event's `event: step` (a PipelineStep plus " +
      "`eventId` and `seq`) and `event: done` (`{eventId, seq, status, body}`). When the token " +
      "expires the stream sends `event: expired` and ends: reconnect with a new token and " +
      "`Last-Event-ID` (or `?lastEventId=`) to resume from that event on (it is sent again). " +
      "Heartbeat comments every 15 s. At most 5 open streams per user (429) and 1000 per " +
      "stream process (503).",
    security: [],
    request: {
      params: z.object({ id: z.string() }),
      query: z.object({
        token: z.string().optional(),
        lastEventId: z.string().optional(),
      }),
    },
    responses: {
      200: {
        description: "An event stream",
        content: { "text/event-stream": { schema: WebhookStreamMessage } },
      },
      401: errorAnswer("Missing, invalid, expired or wrong-webhook stream token"),
      429: errorAnswer("This user already has 5 webhook streams open"),
      503: errorAnswer("This stream process has 1000 webhook streams open"),
    },
  });
}
