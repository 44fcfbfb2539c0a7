import { type Database, type DeliveryWebhook, findDeliveryWebhook } from "@hookflow/db";
import type { Logger } from "@hookflow/observability";
import { WebhookChanged } from "@hookflow/queue";
import type { Redis } from "ioredis";

export interface WebhookCache {
  /** The webhook's delivery settings, or undefined when it no longer exists. */
  get: (id: string) => Promise<DeliveryWebhook | undefined>;
  invalidate: (id: string) => void;
  /** Subscribes to webhook changes; resolves once subscribed. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

interface Entry {
  value: Promise<DeliveryWebhook | undefined>;
  loadedAt: number;
}

/**
 * Webhook settings cached in process. Every change made through the api is published on the
 * webhook-changed channel and drops the entry at once; the TTL only bounds staleness if a message
 * is ever missed (a subscriber reconnect). Concurrent misses share one query, and a load that
 * races an invalidation is not cached.
 */
export function createWebhookCache(options: {
  db: Database;
  subscriber: Redis;
  channel: string;
  logger: Logger;
  ttlMs?: number;
}): WebhookCache {
  const { db, subscriber, channel, logger } = options;
  const ttlMs = options.ttlMs ?? 30_000;
  const entries = new Map<string, Entry>();
  const generations = new Map<string, number>();

  const invalidate = (id: string) => {
    entries.delete(id);
    generations.set(id, (generations.get(id) ?? 0) + 1);
  };

  const onMessage = (received: string, message: string) => {
    if (received !== channel) return;
    try {
      invalidate(WebhookChanged.parse(JSON.parse(message)).webhookId);
    } catch (error) {
      logger.warn({ err: error }, "ignored malformed webhook-changed message");
    }
  };

  return {
    get: (id) => {
      const now = Date.now();
      const hit = entries.get(id);
      if (hit && now - hit.loadedAt < ttlMs) return hit.value;
      const generation = generations.get(id) ?? 0;
      const value = findDeliveryWebhook(db, id);
      const entry = { value, loadedAt: now };
      entries.set(id, entry);
      value.then(
        (webhook) => {
          if ((generations.get(id) ?? 0) !== generation || webhook === undefined) {
            if (entries.get(id) === entry) entries.delete(id);
          }
        },
        () => {
          if (entries.get(id) === entry) entries.delete(id);
        },
      );
      return value;
    },
    invalidate,
    start: async () => {
      subscriber.on("message", onMessage);
      // Everything cached before the subscription might have missed a change.
      subscriber.on("ready", () => entries.clear());
      await subscriber.subscribe(channel);
      entries.clear();
    },
    close: async () => {
      subscriber.off("message", onMessage);
      subscriber.disconnect();
    },
  };
}
