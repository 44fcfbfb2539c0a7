import { EventEmitter } from "node:events";
import type { Logger } from "@hookflow/observability";
import { WebhookChanged } from "@hookflow/queue";
import { Redis } from "ioredis";
import type { AcceptingWebhook } from "./ingress/find-accepting-webhook.js";
import type { TokenCache } from "./ingress/token-cache.js";

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
  disconnect: () => void;
}

/** What the subscriber's handlers act on. */
interface ChangeFeedState {
  channel: string;
  tokens: TokenCache<AcceptingWebhook>;
  changes: EventEmitter;
  logger: Logger;
}

/**
 * Keeps the ingress's token cache in step with webhook writes: caching stays off until the
 * invalidation channel is subscribed, and goes off again whenever the subscriber disconnects.
 */
export function followWebhookChanges(options: FollowWebhookChangesOptions): WebhookChangeFeed {
  const { tokens, logger } = options;
  tokens.setCaching(false);
  const state: ChangeFeedState = {
    channel: options.channel,
    tokens,
    logger,
    changes: new EventEmitter(),
  };
  const subscriber = new Redis(options.redisUrl, { autoResubscribe: false });
  subscriber.on("error", (error) => logger.warn({ err: error }, "redis subscriber error"));
  let markSubscribed: () => void = () => {};
  const subscribed = new Promise<void>((resolve) => {
    markSubscribed = resolve;
  });
  subscriber.on("ready", () => subscribeToChanges(subscriber, state, markSubscribed));
  // While disconnected, invalidations may be missed: stop caching until subscribed again.
  subscriber.on("close", () => tokens.setCaching(false));
  subscriber.on("message", (channel: string, message: string) =>
    applyWebhookChange(state, channel, message),
  );
  return { changes: state.changes, subscribed, disconnect: () => subscriber.disconnect() };
}

/** (Re)subscribes after every connect (`autoResubscribe` is off) and turns caching back on. */
function subscribeToChanges(
  subscriber: Redis,
  state: ChangeFeedState,
  markSubscribed: () => void,
): void {
  subscriber.subscribe(state.channel).then(
    () => {
      state.tokens.setCaching(true);
      markSubscribed();
    },
    (error: unknown) => state.logger.warn({ err: error }, "could not subscribe to webhook changes"),
  );
}

/** Drops the changed webhook's tokens, or every token when the message cannot be read. */
function applyWebhookChange(state: ChangeFeedState, channel: string, message: string): void {
  if (channel !== state.channel) return;
  let parsed: WebhookChanged;
  try {
    parsed = WebhookChanged.parse(JSON.parse(message));
  } catch (error) {
    state.logger.warn({ err: error }, "ignored a malformed webhook-changed message");
    state.tokens.clear();
    return;
  }
  state.tokens.invalidate(parsed.webhookId);
  state.changes.emit("webhook-changed", parsed);
}
