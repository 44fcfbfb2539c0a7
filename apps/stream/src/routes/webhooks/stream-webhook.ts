import { ServerResponse } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  UnauthorizedError,
  verifyWebhookStreamToken,
  type WebhookStreamTokenResult,
} from "@hookflow/domain";
import type { Hono } from "hono";
import { z } from "zod";
import type { StreamServices } from "../../services.js";
import { nodeResponseSink, SSE_HEADERS, type SseSink, webStreamSink } from "../../sse/sse-sink.js";
import { runWebhookStream } from "../../webhooks/run-webhook-stream.js";

const StreamQuery = z.object({
  token: z.string().optional(),
  /** For clients that cannot set headers; `Last-Event-ID` wins when both are sent. */
  lastEventId: z.string().optional(),
});

const TOKEN_MESSAGES: Record<Extract<WebhookStreamTokenResult, { ok: false }>["reason"], string> = {
  malformed: "Invalid webhook stream token",
  mismatch: "Invalid webhook stream token",
  expired: "Webhook stream token expired",
  wrong_webhook: "Webhook stream token is not valid for this webhook",
};

const FEED_ID = /^\d{1,15}-\d{1,15}$/;

function nodeResponseOf(env: unknown): ServerResponse | null {
  const outgoing = (env as Partial<HttpBindings> | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : null;
}

function bearer(header: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(header ?? "")?.[1];
}

/**
 * `GET /api/webhooks/:id/stream`: a webhook's new events and their steps as server-sent events.
 * The credential is a webhook stream token (`POST /api/webhooks/{id}/stream-token` on the api),
 * in `Authorization: Bearer` or `?token=` (EventSource); 401 without a valid one. 429 past the
 * per-user cap, 503 past the per-process cap.
 */
export function registerStreamWebhook(app: Hono, services: StreamServices): void {
  app.get("/api/webhooks/:id/stream", async (c) => {
    const webhookId = c.req.param("id");
    const query = StreamQuery.parse(c.req.query());
    const nowMs = services.now().getTime();
    const token = bearer(c.req.header("authorization")) ?? query.token;
    const verdict = verifyWebhookStreamToken(services.config.secret, token, webhookId, nowMs);
    if (!verdict.ok) throw new UnauthorizedError(TOKEN_MESSAGES[verdict.reason]);
    const release = services.webhookStreams.limits.acquire(verdict.claims.userId);

    const lastEventId = (c.req.header("last-event-id") ?? query.lastEventId ?? "").trim();
    // Headers go out only once the feed subscription is live: a client that has them misses no
    // event announced afterwards (the watch below is registered in the same turn as the headers).
    try {
      await services.webhookStreams.feed.ready();
    } catch (error) {
      release();
      throw error;
    }
    const outgoing = nodeResponseOf(c.env);
    let sink: SseSink;
    let response: Response;
    if (outgoing) {
      sink = nodeResponseSink(outgoing);
      response = RESPONSE_ALREADY_SENT;
    } else {
      const web = webStreamSink();
      sink = web.sink;
      response = new Response(web.body, { status: 200, headers: SSE_HEADERS });
    }
    let ended = false;
    let forget = () => {};
    const end = runWebhookStream({
      sink,
      feed: services.webhookStreams.feed,
      hub: services.hub,
      webhookId,
      fromId: FEED_ID.test(lastEventId) ? lastEventId : undefined,
      endsInMs: verdict.claims.expiresAtMs - nowMs,
      heartbeatMs: services.settings.heartbeatMs,
      maxBufferedBytes: services.settings.maxBufferedBytes,
      onEnd: (reason) => {
        ended = true;
        release();
        forget();
        services.streamMetrics.ended.inc({ reason: `webhook_${reason}` });
      },
    });
    if (!ended) forget = services.streams.add(end);
    return response;
  });
}
