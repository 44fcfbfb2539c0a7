import type { Logger } from "@hookflow/observability";
import type { Redis } from "ioredis";

export type ChangeHandler = (message: string) => void;

/**
 * The worker's one subscriber connection for change announcements (webhook and graph changes),
 * shared by every cache. After a reconnect, messages sent meanwhile may be lost, so `onResubscribe`
 * handlers (the caches drop everything) run once the channels are subscribed again.
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
  const onReady = () => {
    for (const handler of resubscribed) handler();
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
      // ioredis resubscribes on reconnect; whatever was cached meanwhile may have missed a change.
      subscriber.on("ready", onReady);
      await subscriber.subscribe(...handlers.keys());
      onReady();
    },
    close: async () => {
      subscriber.off("message", onMessage);
      subscriber.off("ready", onReady);
      subscriber.disconnect();
    },
  };
}
