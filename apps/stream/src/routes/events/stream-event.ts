import { ServerResponse } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { type StreamTokenResult, UnauthorizedError, verifyStreamToken } from "@hookflow/domain";
import type { Hono } from "hono";
import { z } from "zod";
import { endedBefore } from "../../events/ended-before.js";
import { runEventStream } from "../../events/run-event-stream.js";
import type { StreamServices } from "../../services.js";
import { parseLastEventId } from "../../sse/sse-format.js";
import { nodeResponseSink, SSE_HEADERS, type SseSink, webStreamSink } from "../../sse/sse-sink.js";

const StreamQuery = z.object({
  token: z.string().optional(),
  /** For clients that cannot set headers; `Last-Event-ID` wins when both are sent. */
  lastEventId: z.string().optional(),
});

const TOKEN_MESSAGES: Record<Extract<StreamTokenResult, { ok: false }>["reason"], string> = {
  malformed: "Invalid stream token",
  mismatch: "Invalid stream token",
  expired: "Stream token expired",
  wrong_event: "Stream token is not valid for this event",
};

/** The node response when the app runs on node's HTTP/1 server (not in-process requests). */
function nodeResponseOf(env: unknown): ServerResponse | null {
  const outgoing = (env as Partial<HttpBindings> | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : null;
}

/**
 * `GET /api/events/:eventId/stream?token=`: the event's pipeline as server-sent events. The
 * stream token is the credential (401 when missing, forged, expired or for another event).
 */
export function registerStreamEvent(app: Hono, services: StreamServices): void {
  app.get("/api/events/:eventId/stream", async (c) => {
    const eventId = c.req.param("eventId");
    const query = StreamQuery.parse(c.req.query());
    const verdict = verifyStreamToken(
      services.config.secret,
      query.token,
      eventId,
      services.now().getTime(),
    );
    if (!verdict.ok) throw new UnauthorizedError(TOKEN_MESSAGES[verdict.reason]);

    const afterSeq = parseLastEventId(c.req.header("last-event-id") ?? query.lastEventId);
    if (afterSeq > 0 && (await endedBefore(services, eventId, afterSeq))) {
      return c.body(null, 204);
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
    const end = runEventStream({
      sink,
      hub: services.hub,
      eventId,
      afterSeq,
      ...services.settings,
      onEnd: (reason) => {
        ended = true;
        forget();
        services.streamMetrics.ended.inc({ reason });
      },
    });
    if (!ended) forget = services.streams.add(end);
    return response;
  });
}
