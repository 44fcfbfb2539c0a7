import type { Redis } from "ioredis";
import { z } from "zod";
import type { RedisKeys } from "../redis-keys.js";

/**
 * The webhook feed: which events each webhook's graph starts running, so a webhook's live
 * stream learns about new events. Workers announce an event when a delivery job of it begins;
 * each announcement is appended to the webhook's Redis stream (capped, expiring; its entry id is
 * the SSE `Last-Event-ID` for catch-up) and all announcements gathered meanwhile go out in one
 * PUBLISH. A retry or a replay announces the event again.
 */

/** Announcements kept per webhook (approximately: `MAXLEN ~`). */
export const WEBHOOK_FEED_MAX_ENTRIES = 1000;
/** The feed expires this long after its last announcement, like the steps buffers it points to. */
export const WEBHOOK_FEED_TTL_SECONDS = 10 * 60;

export const FeedEntry = z.object({
  webhookId: z.string(),
  eventId: z.string(),
  /** The Redis stream entry id (`<ms>-<n>`). */
  id: z.string().regex(/^\d+-\d+$/),
});
export type FeedEntry = z.infer<typeof FeedEntry>;

/**
 * KEYS: the feed of each announcement. ARGV: channel, ttl, cap, then per key its webhook id and
 * event id. Appends each, then publishes every entry (newline-separated JSON) at once.
 */
const ANNOUNCE = `
local published = {}
for i = 1, #KEYS do
  local webhook = ARGV[2 + i * 2]
  local event = ARGV[3 + i * 2]
  local id = redis.call('XADD', KEYS[i], 'MAXLEN', '~', ARGV[3], '*', 'eventId', event)
  redis.call('EXPIRE', KEYS[i], ARGV[2])
  published[i] = cjson.encode({ webhookId = webhook, eventId = event, id = id })
end
redis.call('PUBLISH', ARGV[1], table.concat(published, '\\n'))
`;

export interface WebhookFeedPublisher {
  /** Fire and forget: failures go to `onError`. */
  announce: (webhookId: string, eventId: string) => void;
  /** Resolves once everything announced so far reached Redis (or failed). */
  idle: () => Promise<void>;
}

export interface CreateWebhookFeedPublisherOptions {
  redis: Redis;
  keys: RedisKeys;
  /** Announcements gather this long into one script call (0: the next event-loop turn). */
  flushDelayMs?: number;
  onError?: (error: unknown, announcements: number) => void;
}

/** At most this many announcements per script call. */
const BATCH_MAX = 500;

export function createWebhookFeedPublisher(
  options: CreateWebhookFeedPublisherOptions,
): WebhookFeedPublisher {
  const { redis, keys } = options;
  const onError = options.onError ?? (() => {});
  let pending: Array<[string, string]> = [];
  let timer: NodeJS.Timeout | undefined;
  let last: Promise<unknown> = Promise.resolve();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    const args: Array<string | number> = [
      keys.webhookFeedChannel,
      WEBHOOK_FEED_TTL_SECONDS,
      WEBHOOK_FEED_MAX_ENTRIES,
    ];
    for (const [webhookId, eventId] of batch) args.push(webhookId, eventId);
    const feeds = batch.map(([webhookId]) => keys.webhookFeed(webhookId));
    last = redis
      .eval(ANNOUNCE, feeds.length, ...feeds, ...args)
      .catch((error: unknown) => onError(error, batch.length));
  };

  return {
    announce: (webhookId, eventId) => {
      pending.push([webhookId, eventId]);
      if (pending.length >= BATCH_MAX) flush();
      else timer ??= setTimeout(flush, options.flushDelayMs ?? 0);
    },
    idle: async () => {
      flush();
      await last;
    },
  };
}

/** Orders two stream entry ids (`<ms>-<n>`): negative, zero or positive. */
export function compareFeedIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split("-").map(Number);
  const [bMs = 0, bSeq = 0] = b.split("-").map(Number);
  return aMs === bMs ? aSeq - bSeq : aMs - bMs;
}

/** The feed entries from `fromId` (inclusive) on, oldest first, at most `count`. */
export async function readWebhookFeed(
  redis: Redis,
  keys: RedisKeys,
  webhookId: string,
  fromId: string,
  count = WEBHOOK_FEED_MAX_ENTRIES,
): Promise<FeedEntry[]> {
  const rows = await redis.xrange(keys.webhookFeed(webhookId), fromId, "+", "COUNT", count);
  return rows.flatMap(([id, fields]) => {
    const at = fields.indexOf("eventId");
    const eventId = at >= 0 ? fields[at + 1] : undefined;
    return eventId ? [{ webhookId, eventId, id }] : [];
  });
}

/** Parses one published line; null when it is not a feed entry. */
export function parseFeedEntry(raw: string): FeedEntry | null {
  try {
    const parsed = FeedEntry.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
