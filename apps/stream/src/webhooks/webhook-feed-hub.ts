import {
  compareFeedIds,
  type FeedEntry,
  parseFeedEntry,
  type RedisKeys,
  readWebhookFeed,
  subscribeAfterHandshake,
} from "@hookflow/queue";
import type { Redis } from "ioredis";

type FeedListener = (entry: FeedEntry) => void;

export interface WebhookFeedHub {
  /**
   * Delivers a webhook's announcements to `listener`, in order and each once: with `fromId`,
   * those stored from that id on (inclusive), then live ones. Live announcements reach it from
   * the moment it is called once `ready()` has resolved. Returns the function that stops it.
   */
  watch: (webhookId: string, fromId: string | undefined, listener: FeedListener) => () => void;
  /** Resolves once this process's subscription to the feed channel is live. */
  ready: () => Promise<void>;
  listenerCount: () => number;
  close: () => Promise<void>;
}

interface Watcher {
  webhookId: string;
  listener: FeedListener;
  lastId: string | undefined;
  catchingUp: boolean;
  pending: FeedEntry[];
  closed: boolean;
}

/**
 * The process's one subscription to the webhook feed channel, fanned out by webhook id (like the
 * steps hub for events). A watcher subscribes first and reads the stored feed second, so nothing
 * published in between is missed; entry ids drop what both paths delivered. After the subscriber
 * reconnects, each watcher reads the feed again from its last id.
 */
export function createWebhookFeedHub(options: {
  subscriber: Redis;
  commands: Redis;
  keys: RedisKeys;
  onError: (error: unknown, context: string) => void;
}): WebhookFeedHub {
  const { subscriber, commands, keys, onError } = options;
  const channel = keys.webhookFeedChannel;
  const watchers = new Map<string, Set<Watcher>>();
  let subscription: Promise<unknown> | null = null;
  let connectedBefore = subscriber.status === "ready";

  const deliver = (watcher: Watcher, entry: FeedEntry) => {
    if (watcher.closed) return;
    if (watcher.lastId !== undefined && compareFeedIds(entry.id, watcher.lastId) <= 0) return;
    watcher.lastId = entry.id;
    try {
      watcher.listener(entry);
    } catch (error) {
      onError(error, "webhook feed listener threw");
    }
  };

  /**
   * Reads the stored feed from `fromId` on. A new watch (`resend`) gets the entry at `fromId`
   * itself again, since its steps may have been cut short; after a reconnect the watcher already
   * has it, so only later entries are sent.
   */
  const catchUp = async (watcher: Watcher, fromId: string | undefined, resend: boolean) => {
    watcher.catchingUp = true;
    if (fromId !== undefined) {
      try {
        const stored = await readWebhookFeed(commands, keys, watcher.webhookId, fromId);
        if (resend && watcher.lastId === fromId) watcher.lastId = undefined;
        for (const entry of stored) deliver(watcher, entry);
      } catch (error) {
        onError(error, "could not read a webhook feed");
      }
    }
    const queued = watcher.pending;
    watcher.pending = [];
    for (const entry of queued) deliver(watcher, entry);
    watcher.catchingUp = false;
  };

  const subscribe = (): Promise<unknown> => {
    subscription ??= subscribeAfterHandshake(subscriber, channel).catch((error: unknown) => {
      subscription = null;
      onError(error, "could not subscribe to the webhook feed");
      throw error;
    });
    return subscription;
  };

  subscriber.on("message", (from: string, batch: string) => {
    if (from !== channel) return;
    for (const line of batch.split("\n")) {
      const entry = parseFeedEntry(line);
      const set = entry ? watchers.get(entry.webhookId) : undefined;
      if (!entry || !set) continue;
      for (const watcher of set) {
        if (watcher.catchingUp) watcher.pending.push(entry);
        else deliver(watcher, entry);
      }
    }
  });
  subscriber.on("ready", () => {
    if (!connectedBefore) {
      connectedBefore = true;
      return;
    }
    // Announcements published while disconnected were lost by pub/sub: the feed has them.
    for (const set of watchers.values()) {
      for (const watcher of set) void catchUp(watcher, watcher.lastId, false);
    }
  });

  return {
    watch: (webhookId, fromId, listener) => {
      const watcher: Watcher = {
        webhookId,
        listener,
        lastId: fromId,
        catchingUp: true,
        pending: [],
        closed: false,
      };
      const set = watchers.get(webhookId) ?? new Set<Watcher>();
      set.add(watcher);
      watchers.set(webhookId, set);
      subscribe().then(
        () => catchUp(watcher, fromId, true),
        () => undefined, // reported; the reconnect re-reads from the watcher's last id
      );
      return () => {
        watcher.closed = true;
        set.delete(watcher);
        if (set.size === 0) watchers.delete(webhookId);
      };
    },
    ready: async () => {
      await subscribe();
    },
    listenerCount: () => [...watchers.values()].reduce((sum, set) => sum + set.size, 0),
    close: async () => {
      watchers.clear();
      if (subscription) await subscriber.unsubscribe(channel).catch(() => undefined);
    },
  };
}
