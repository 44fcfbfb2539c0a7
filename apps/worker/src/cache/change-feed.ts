import type { Logger } from "@hookflow/observability";
import type { Redis } from "ioredis";

type ChangeHandler = (message: string) => void;

/**
 * The worker's one subscriber connection for change announcements (webhook and graph changes),
 * shared by every cache. After a reconnect, messages sent meanwhile may be lost, so `onResubscribe`
 * handlers (the caches drop everything) run once the channels are confirmed subscribed again.
 */
export interface ChangeFeed {
  on: (channel: string, handler: ChangeHandler) => void;
  onResubscribe: (handler: () => void) => void;
  /** Subscribes to every channel registered so far; resolves once subscribed. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

export function createChangeFeed(options: { subscriber: Redis; logger: Logger }): ChangeFeed {
  const { subscriber, logger } = options;
  const handlers = new Map<string, ChangeHandler[]>();
  const resubscribed: Array<() => void> = [];

  const onMessage = (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(message);
      } catch (error) {
        logger.warn({ err: error, channel }, "a change handler failed");
      }
    }
  };
  let started = false;
  const dropAll = () => {
    for (const handler of resubscribed) handler();
  };
  // ioredis emits "ready" before its automatic re-subscription is even sent: subscribe again
  // ourselves and drop the caches once that is confirmed, so no load in between is kept.
  const onReady = () => {
    if (!started) return;
    subscriber.subscribe(...handlers.keys()).then(dropAll, (error: unknown) => {
      logger.warn({ err: error }, "could not subscribe to change announcements again");
      dropAll();
    });
  };

  return {
    on: (channel, handler) => {
      const list = handlers.get(channel);
      if (list) list.push(handler);
      else handlers.set(channel, [handler]);
    },
    onResubscribe: (handler) => {
      resubscribed.push(handler);
    },
    start: async () => {
      subscriber.on("message", onMessage);
      // After a reconnect, whatever was cached may have missed a change.
      subscriber.on("ready", onReady);
      await subscriber.subscribe(...handlers.keys());
      started = true;
      dropAll();
    },
    close: async () => {
      subscriber.off("message", onMessage);
      subscriber.off("ready", onReady);
      subscriber.disconnect();
    },
  };
}
