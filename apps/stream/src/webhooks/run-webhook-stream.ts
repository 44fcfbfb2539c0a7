import type { StepHub } from "@hookflow/queue";
import type { StreamEnd } from "../events/run-event-stream.js";
import { HEARTBEAT, RETRY_HINT } from "../sse/sse-format.js";
import type { SseSink } from "../sse/sse-sink.js";
import type { WebhookFeedHub } from "./webhook-feed-hub.js";

/** Why a webhook stream ended: the event stream's reasons, or its token ran out. */
export type WebhookStreamEnd = StreamEnd | "expired";

/** Events one stream follows at once; past it the oldest followed event is let go. */
const MAX_FOLLOWED_EVENTS = 200;

export interface RunWebhookStreamOptions {
  sink: SseSink;
  feed: WebhookFeedHub;
  hub: StepHub;
  webhookId: string;
  /** Resume from this feed id (`Last-Event-ID`), inclusive; undefined: live only. */
  fromId: string | undefined;
  /** The stream ends (`event: expired`) when its token does. */
  endsInMs: number;
  heartbeatMs: number;
  maxBufferedBytes: number;
  onEnd: (reason: WebhookStreamEnd) => void;
}

function message(event: "event" | "step" | "done" | "expired", data: unknown, id?: string) {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return `event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`;
}

/**
 * Relays a webhook's events to one SSE client: `event` (with the feed id as `id:`) when a worker
 * starts an event of the webhook, then that event's `step`s and `done` from the steps hub (its
 * buffer first, so nothing between the announcement and the watch is lost). The stream lasts
 * until the token expires (`expired`), the client leaves or falls 1 MiB behind, or shutdown.
 * Returns the function that ends it from outside.
 */
export function runWebhookStream(
  options: RunWebhookStreamOptions,
): (reason: WebhookStreamEnd) => void {
  const { sink, webhookId } = options;
  const followed = new Map<string, () => void>();
  /** The last step number relayed per event, so a replay's announcement resends nothing old. */
  const lastSeq = new Map<string, number>();
  let ended = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let unwatchFeed: (() => void) | undefined;

  const finish = (reason: WebhookStreamEnd) => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearTimeout(deadline);
    unwatchFeed?.();
    for (const unwatch of followed.values()) unwatch();
    followed.clear();
    sink.end();
    options.onEnd(reason);
  };
  const write = (text: string) => {
    if (ended) return;
    sink.write(text);
    if (sink.bufferedBytes() > options.maxBufferedBytes) finish("slow_client");
  };
  const letGo = (eventId: string) => {
    followed.get(eventId)?.();
    followed.delete(eventId);
  };

  const follow = (eventId: string, feedId: string) => {
    if (followed.has(eventId)) return;
    if (followed.size >= MAX_FOLLOWED_EVENTS) {
      const oldest = followed.keys().next().value;
      if (oldest !== undefined) letGo(oldest);
    }
    write(message("event", { eventId, webhookId, feedId }, feedId));
    const afterSeq = lastSeq.get(eventId) ?? 0;
    const unwatch = options.hub.watch(eventId, { afterSeq }, ({ seq, message: step }) => {
      lastSeq.delete(eventId);
      lastSeq.set(eventId, seq);
      if (lastSeq.size > MAX_FOLLOWED_EVENTS * 5) {
        const oldest = lastSeq.keys().next().value;
        if (oldest !== undefined) lastSeq.delete(oldest);
      }
      switch (step.kind) {
        case "step":
          write(message("step", { ...step.step, eventId, seq }));
          return;
        case "done":
          write(message("done", { eventId, seq, status: step.done.status, body: step.done.body }));
          letGo(eventId);
          return;
        case "parked":
          return;
      }
    });
    if (ended) unwatch();
    else followed.set(eventId, unwatch);
  };

  sink.onClose(() => finish("client"));
  if (ended) return finish;
  write(RETRY_HINT);
  heartbeat = setInterval(() => write(HEARTBEAT), options.heartbeatMs);
  deadline = setTimeout(
    () => {
      write(message("expired", { webhookId }));
      finish("expired");
    },
    Math.max(0, options.endsInMs),
  );
  unwatchFeed = options.feed.watch(webhookId, options.fromId, (entry) =>
    follow(entry.eventId, entry.id),
  );
  if (ended) unwatchFeed();
  return finish;
}
