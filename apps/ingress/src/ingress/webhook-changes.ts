import { EventEmitter } from "node:events";
import type { Logger } from "@hookflow/observability";
import { createChangeFeed, WebhookChanged } from "@hookflow/queue";
import { Redis } from "ioredis";
import type { AcceptingWebhook } from "./find-accepting-webhook.js";
import type { TokenCache } from "./token-cache.js";

interface FollowWebhookChangesOptions {
  redisUrl: string;
  /** The pub/sub channel every webhook write publishes on. */
  channel: string;
  tokens: TokenCache<AcceptingWebhook>;
  logger: Logger;
}

export interface WebhookChangeFeed {
  /** Emits `webhook-changed` with the parsed message after the cache dropped its entries. */
  changes: EventEmitter;
  /** Resolves once the channel is subscribed the first time (until then nothing is cached). */
  subscribed: Promise<void>;
  disconnect: () => Promise<void>;
}

/**
 * Keeps the ingress's token cache in step with webhook writes through the shared change feed
 * (`@hookflow/queue`'s `createChangeFeed`, the one the worker's caches use): caching stays off
 * until the channel is subscribed, and goes off again whenever the subscriber disconnects.
 */
export function followWebhookChanges(options: FollowWebhookChangesOptions): WebhookChangeFeed {
  const { tokens, logger } = options;
  tokens.setCaching(false);
  const subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis subscriber error"));
  const feed = createChangeFeed({ subscriber, logger });
  const changes = new EventEmitter();
  feed.on(options.channel, (message) => applyWebhookChange(tokens, changes, logger, message));
  feed.onResubscribe(() => tokens.setCaching(true));
  // While disconnected, invalidations may be missed: stop caching until subscribed again.
  feed.onUnsubscribed(() => tokens.setCaching(false));
  const subscribed = feed.start().catch((error: unknown) => {
    logger.warn({ err: error }, "could not subscribe to webhook changes; tokens are not cached");
  });
  return { changes, subscribed, disconnect: () => feed.close() };
}

/** Drops the changed webhook's tokens, or every token when the message cannot be read. */
function applyWebhookChange(
  tokens: TokenCache<AcceptingWebhook>,
  changes: EventEmitter,
  logger: Logger,
  message: string,
): void {
  let parsed: WebhookChanged;
  try {
    parsed = WebhookChanged.parse(JSON.parse(message));
  } catch (error) {
    logger.warn({ err: error }, "ignored a malformed webhook-changed message");
    tokens.clear();
    return;
  }
  tokens.invalidate(parsed.webhookId);
  changes.emit("webhook-changed", parsed);
}
