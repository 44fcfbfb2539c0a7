import { errorFromResponse, HookflowError } from "./errors.js";
import type { ResultOf } from "./operation-types.js";
import { readServerSentEvents } from "./sse.js";
import { segment, type Transport } from "./transport.js";

type StepMessage = ResultOf<"listEventSteps"> extends Array<infer T> ? T : never;

/** What a webhook stream sends (`GET /api/webhooks/{id}/stream`). */
export type WebhookStreamMessage =
  | { type: "event"; eventId: string; webhookId: string; feedId: string }
  | ({ type: "step"; eventId: string; seq: number } & Omit<StepMessage, "eventId">)
  | {
      type: "done";
      eventId: string;
      seq: number;
      status: number;
      body: { deliveryStatus: string; statusCode: number; latencyMs: number };
    };

export interface WebhookStreamOptions {
  /** Resume from this feed id (an `event` message's `feedId`); default: new events only. */
  lastEventId?: string;
  /** Stops the stream (the loop ends without an error). */
  signal?: AbortSignal;
  /** Called before each reconnection after the first connection (token renewal, a drop). */
  onReconnect?: (lastEventId: string | undefined) => void;
  /**
   * Called each time the stream is open: the server answers only once it listens for the
   * webhook's events, so an event sent after this call is not missed.
   */
  onOpen?: () => void;
}

/** The longest a broken stream waits before connecting again. */
const MAX_BACKOFF_MS = 15_000;

const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A webhook's live events as an async iterator, for as long as the loop runs: fetches a stream
 * token, opens the stream with it in a header, and when the token expires or the connection
 * drops, fetches a new one and resumes from the last event seen (`Last-Event-ID`). An error
 * answer that will not heal (401, 403, 404) ends the loop by throwing `HookflowError`.
 */
export async function* streamWebhook(
  transport: Transport,
  webhookId: string,
  options: WebhookStreamOptions = {},
): AsyncGenerator<WebhookStreamMessage, void, undefined> {
  let lastEventId = options.lastEventId;
  let failures = 0;
  for (let attempt = 0; !options.signal?.aborted; attempt++) {
    if (attempt > 0) options.onReconnect?.(lastEventId);
    let response: Response;
    try {
      const { data } = await transport.request<ResultOf<"createWebhookStreamToken">>(
        "POST",
        `/api/webhooks/${segment(webhookId)}/stream-token`,
        { signal: options.signal },
      );
      const headers = new Headers({ authorization: `Bearer ${data.token}` });
      headers.set("accept", "text/event-stream");
      if (lastEventId) headers.set("last-event-id", lastEventId);
      response = await transport.streamFetch(
        new Request(`${transport.baseUrl}/api/webhooks/${segment(webhookId)}/stream`, {
          headers,
          signal: options.signal,
        }),
      );
    } catch (error) {
      if (options.signal?.aborted) return;
      if (error instanceof HookflowError && error.statusCode < 500 && error.statusCode !== 429) {
        throw error;
      }
      await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures++), options.signal);
      continue;
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => "");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      const error = errorFromResponse(response, body);
      if (response.status !== 429 && response.status < 500) throw error;
      await sleep(
        Math.min(MAX_BACKOFF_MS, (error.retryAfterSeconds ?? 2 ** failures++) * 1000),
        options.signal,
      );
      continue;
    }
    failures = 0;
    options.onOpen?.();
    try {
      for await (const message of readServerSentEvents(response.body, lastEventId ?? "")) {
        if (message.id) lastEventId = message.id;
        if (message.event === "event" || message.event === "step" || message.event === "done") {
          yield { type: message.event, ...JSON.parse(message.data) } as WebhookStreamMessage;
        }
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      if (!(error instanceof Error) || error instanceof SyntaxError) throw error;
      // The connection broke: connect again below.
    }
  }
}
