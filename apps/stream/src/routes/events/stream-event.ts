import { ServerResponse } from "node:http";
import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  RateLimitedError,
  type StreamTokenResult,
  UnauthorizedError,
  UnavailableError,
  verifyStreamToken,
} from "@hookflow/domain";
import type { Hono } from "hono";
import { z } from "zod";
import { endedBefore } from "../../events/ended-before.js";
import { runEventStream } from "../../events/run-event-stream.js";
import type { SlotRefusal } from "../../events/stream-slots.js";
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

/** A stream that could not open now: another may once one of the open ones ends. */
const RETRY_AFTER_SECONDS = 5;

function refusal(services: StreamServices, refused: SlotRefusal): RateLimitedError {
  const { streamMaxPerToken, streamMaxPerProcess } = services.config;
  return new RateLimitedError(
    RETRY_AFTER_SECONDS,
    refused === "token"
      ? `Too many open streams for this stream token (at most ${streamMaxPerToken})`
      : `Too many open streams on this server (at most ${streamMaxPerProcess})`,
  );
}

/** The node response when the app runs on node's HTTP/1 server (not in-process requests). */
function nodeResponseOf(env: unknown): ServerResponse | null {
  const outgoing = (env as Partial<HttpBindings> | undefined)?.outgoing;
  return outgoing instanceof ServerResponse ? outgoing : null;
}

/**
 * `GET /api/events/:eventId/stream?token=`: the event's pipeline as server-sent events. The
 * stream token is the credential (401 when missing, forged, expired or for another event); 429
 * when the token or this process already holds its most streams (see stream-slots.ts).
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

    const release = await takeSlot(services, query.token ?? "");
    try {
      return serveStream(c.env, services, { eventId, afterSeq, release });
    } catch (error) {
      release();
      throw error;
    }
  });
}

/** A slot for one more stream of this token in this process, or 429 (503 if Redis fails). */
async function takeSlot(services: StreamServices, token: string): Promise<() => void> {
  let grant: Awaited<ReturnType<StreamServices["slots"]["acquire"]>>;
  try {
    grant = await services.slots.acquire(token);
  } catch (error) {
    throw new UnavailableError("Stream slots unavailable", error);
  }
  if (!grant.ok) {
    services.streamMetrics.refused.inc({ reason: grant.refused });
    throw refusal(services, grant.refused);
  }
  return grant.release;
}

/** Starts relaying the event to the client; `release` runs once the stream ends, however. */
function serveStream(
  env: unknown,
  services: StreamServices,
  input: { eventId: string; afterSeq: number; release: () => void },
): Response {
  const { eventId, afterSeq, release } = input;
  const outgoing = nodeResponseOf(env);
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
      release();
      forget();
      services.streamMetrics.ended.inc({ reason });
    },
  });
  if (!ended) forget = services.streams.add(end);
  return response;
}
