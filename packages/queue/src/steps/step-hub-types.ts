import type { Redis } from "ioredis";
import type { RedisKeys } from "../redis-keys.js";
import type { StepEntry } from "./step-entry.js";

export type StepListener = (entry: StepEntry) => void;

export interface WatchOptions {
  /** Deliver only messages numbered above this (`Last-Event-ID` resumption); default 0. */
  afterSeq?: number;
}

export interface StepHub {
  /**
   * Delivers an event's messages to `listener`, in order and each once: those already in the
   * replay buffer (above `afterSeq`), then live ones. Returns the function that stops it.
   */
  watch: (eventId: string, options: WatchOptions, listener: StepListener) => () => void;
  /** Resolves once this process's subscription to the steps channel is live. */
  ready: () => Promise<void>;
  /** Watchers registered now (of one event, or all). */
  listenerCount: (eventId?: string) => number;
  /** Drops every watcher and the subscription; the connections stay open (the caller owns them). */
  close: () => Promise<void>;
}

export interface CreateStepHubOptions {
  /** A connection used for nothing else: it enters subscriber mode. */
  subscriberRedis: Redis;
  /** A command connection, for reading replay buffers. */
  commandRedis: Redis;
  keys: RedisKeys;
  /** Told about failures the hub recovers from (a buffer read failed, a listener threw). */
  onError?: (error: unknown, context: string) => void;
  /**
   * Drop the subscription after this long without watchers (the next watch subscribes again).
   * For processes that watch now and then (a sync-mode ingress), so they do not receive every
   * event's steps forever. Default: keep it.
   */
  idleUnsubscribeMs?: number;
}
