import type { Logger } from "@hookflow/observability";
import type { RedisKeys } from "@hookflow/queue";
import { Redis } from "ioredis";
import { createWebhookStreamLimits, type WebhookStreamLimits } from "./stream-limits.js";
import { createWebhookFeedHub, type WebhookFeedHub } from "./webhook-feed-hub.js";

/** What the webhook-level streams add to the stream app's services. */
export interface WebhookStreamParts {
  feed: WebhookFeedHub;
  limits: WebhookStreamLimits;
  close: () => Promise<void>;
}

/**
 * The feed hub on a subscriber connection of its own (the steps hub keeps its one), and the
 * per-user and per-process caps.
 */
export function buildWebhookStreamParts(options: {
  redisUrl: string;
  redis: Redis;
  keys: RedisKeys;
  logger: Logger;
  limits?: { perUser: number; perProcess: number };
}): WebhookStreamParts {
  const subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  subscriber.on("error", (error) =>
    options.logger.warn({ err: error }, "redis webhook feed subscriber error"),
  );
  const feed = createWebhookFeedHub({
    subscriber,
    commands: options.redis,
    keys: options.keys,
    onError: (error, context) => options.logger.warn({ err: error }, context),
  });
  return {
    feed,
    limits: createWebhookStreamLimits(options.limits),
    close: async () => {
      await feed.close();
      subscriber.disconnect();
    },
  };
}
