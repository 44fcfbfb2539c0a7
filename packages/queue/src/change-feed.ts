import type { Redis } from "ioredis";
import { subscribeAfterHandshake } from "./subscribe-after-handshake.js";

type ChangeHandler = (message: string) => void;

/** Where the feed reports a failed handler or subscription (the apps' pino loggers fit). */
interface FeedLogger {
  warn: (details: object, message: string) => void;
}

/**
 * A process's one subscriber connection for change announcements (webhook and graph changes),
 * shared by every cache that must forget what changed: the ingress's token cache, the worker's
 * webhook, graph and target caches. Pub/sub keeps nothing for a subscriber that is away, so
 * `onUnsubscribed` handlers run when the connection drops (a cache stops trusting itself) and
 * `onResubscribe` handlers once the channels are confirmed subscribed again, and at start.
 */
export interface ChangeFeed {
  on: (channel: string, handler: ChangeHandler) => void;
  onResubscribe: (handler: () => void) => void;
  onUnsubscribed: (handler: () => void) => void;
  /** Subscribes to every channel registered so far; resolves once subscribed. */
  start: () => Promise<void>;
  close: () => Promise<void>;
}

interface FeedState {
  subscriber: Redis;
  logger: FeedLogger;
  handlers: Map<string, ChangeHandler[]>;
  resubscribed: Array<() => void>;
  unsubscribed: Array<() => void>;
  started: boolean;
}

export function createChangeFeed(options: { subscriber: Redis; logger: FeedLogger }): ChangeFeed {
  const state: FeedState = {
    subscriber: options.subscriber,
    logger: options.logger,
    handlers: new Map(),
    resubscribed: [],
    unsubscribed: [],
    started: false,
  };
  const onMessage = (channel: string, message: string) => dispatch(state, channel, message);
  // ioredis emits "ready" before its automatic re-subscription is even sent: subscribe again
  // ourselves and run the handlers once that is confirmed, so no load in between is kept.
  const onReady = () => {
    if (state.started) void resubscribe(state);
  };
  const onClose = () => {
    if (state.started) runAll(state.unsubscribed);
  };
  return {
    on: (channel, handler) => {
      const list = state.handlers.get(channel);
      if (list) list.push(handler);
      else state.handlers.set(channel, [handler]);
    },
    onResubscribe: (handler) => {
      state.resubscribed.push(handler);
    },
    onUnsubscribed: (handler) => {
      state.unsubscribed.push(handler);
    },
    start: async () => {
      state.subscriber.on("message", onMessage);
      state.subscriber.on("ready", onReady);
      state.subscriber.on("close", onClose);
      await subscribeAfterHandshake(state.subscriber, ...state.handlers.keys());
      state.started = true;
      runAll(state.resubscribed);
    },
    close: async () => {
      state.started = false;
      state.subscriber.off("message", onMessage);
      state.subscriber.off("ready", onReady);
      state.subscriber.off("close", onClose);
      state.subscriber.disconnect();
    },
  };
}

function dispatch(state: FeedState, channel: string, message: string): void {
  for (const handler of state.handlers.get(channel) ?? []) {
    try {
      handler(message);
    } catch (error) {
      state.logger.warn({ err: error, channel }, "a change handler failed");
    }
  }
}

/** After a reconnect; a subscription that fails leaves the caches distrustful until the next. */
async function resubscribe(state: FeedState): Promise<void> {
  try {
    await state.subscriber.subscribe(...state.handlers.keys());
  } catch (error) {
    state.logger.warn({ err: error }, "could not subscribe to change announcements again");
    runAll(state.unsubscribed);
    return;
  }
  runAll(state.resubscribed);
}

function runAll(handlers: ReadonlyArray<() => void>): void {
  for (const handler of handlers) handler();
}
