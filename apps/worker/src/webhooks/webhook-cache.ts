import { type Database, type DeliveryWebhook, findDeliveryWebhook } from "@hookflow/db";
import {
  type DeliverySigningKeys,
  deliverySigningKeys,
  type KeyRing,
  openWebhookSecret,
} from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { ChangeFeed } from "@hookflow/queue";
import { WebhookChanged } from "@hookflow/queue";
import { createInvalidatingCache, dropOnMissedChanges } from "../cache/invalidating-cache.js";
import { safeJson } from "../cache/safe-json.js";

/** A cached webhook: its delivery settings and its signing keys, prepared once per load. */
export interface WorkerWebhook extends DeliveryWebhook {
  /** Null when the webhook has no signing secret (deliveries go unsigned). */
  signingKeys: DeliverySigningKeys | null;
}

export interface WebhookCache {
  /** The webhook's delivery settings, or undefined when it no longer exists. */
  get: (id: string) => Promise<WorkerWebhook | undefined>;
  invalidate: (id: string) => void;
}

/**
 * Webhook settings cached in process. Every change made through the api is published on the
 * webhook-changed channel and drops the entry at once (see the change feed); a webhook that does
 * not exist is not cached. The signing secret is opened, and its keys prepared, when an entry
 * loads, so a delivery never decrypts or prepares a key.
 */
export function createWebhookCache(options: {
  db: Database;
  keyRing: KeyRing;
  feed: ChangeFeed;
  channel: string;
  logger: Logger;
  ttlMs?: number;
}): WebhookCache {
  const { db, logger } = options;
  const cache = createInvalidatingCache<WorkerWebhook | undefined>({
    load: async (id) => {
      const stored = await findDeliveryWebhook(db, id);
      if (!stored) return undefined;
      const signingSecret = openWebhookSecret(
        options.keyRing,
        id,
        "signing_secret",
        stored.signingSecret,
      );
      const signingKeys = signingSecret ? deliverySigningKeys(signingSecret) : null;
      return { ...stored, signingSecret, signingKeys };
    },
    ttlMs: options.ttlMs ?? 30_000,
    keep: (webhook) => webhook !== undefined,
  });
  options.feed.on(options.channel, (message) => {
    const changed = WebhookChanged.safeParse(safeJson(message));
    if (changed.success) cache.drop(changed.data.webhookId);
    else logger.warn("ignored a malformed webhook-changed message");
  });
  dropOnMissedChanges(options.feed, cache);
  return { get: cache.get, invalidate: (id) => cache.drop(id) };
}
