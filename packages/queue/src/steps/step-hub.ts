import type { Redis } from "ioredis";
import type { RedisKeys } from "../redis-keys.js";
import { parseStepEntry, peekEventId, type StepEntry } from "./step-entry.js";

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

interface Watcher {
  eventId: string;
  listener: StepListener;
  lastSeq: number;
  /** While the buffer is being read, live entries wait here. */
  catchingUp: boolean;
  pending: StepEntry[];
  /** A new read was asked for while one was running (reconnect, gap). */
  again: boolean;
  closed: boolean;
}

/**
 * The one subscription of a process to the steps channel, fanned out in memory by event id
 * (each channel message is a publish batch: entries separated by newlines).
 * A watcher subscribes first and reads the buffer second, so nothing published in between is
 * missed; sequence numbers drop what both paths delivered. After the subscriber reconnects, or
 * when a live message shows a gap, the watcher reads the buffer again to fill what pub/sub lost.
 */
export function createStepHub(options: CreateStepHubOptions): StepHub {
  const { subscriberRedis: subscriber, commandRedis: commands, keys } = options;
  const channel = keys.stepsChannel;
  const report = options.onError ?? (() => {});
  const watchers = new Map<string, Set<Watcher>>();
  let subscription: Promise<void> | null = null;
  let connectedBefore = subscriber.status === "ready";
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  const scheduleIdle = () => {
    const idleMs = options.idleUnsubscribeMs;
    if (idleMs === undefined || watchers.size > 0 || !subscription) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (watchers.size > 0 || !subscription || closed) return;
      subscription = null;
      subscriber
        .unsubscribe(channel)
        .catch((error: unknown) => report(error, "could not drop the idle steps subscription"));
    }, idleMs);
    idleTimer.unref();
  };

  const subscribe = (): Promise<void> => {
    subscription ??= subscriber.subscribe(channel).then(
      () => undefined,
      (error: unknown) => {
        subscription = null;
        throw error;
      },
    );
    return subscription;
  };

  const deliver = (watcher: Watcher, entry: StepEntry) => {
    if (watcher.closed || entry.seq <= watcher.lastSeq) return;
    watcher.lastSeq = entry.seq;
    try {
      watcher.listener(entry);
    } catch (error) {
      report(error, "step listener threw");
    }
  };

  const catchUp = async (watcher: Watcher): Promise<void> => {
    do {
      watcher.again = false;
      try {
        const raws = await commands.lrange(keys.stepBuffer(watcher.eventId), 0, -1);
        for (const raw of raws) {
          const entry = parseStepEntry(raw);
          if (entry) deliver(watcher, entry);
        }
      } catch (error) {
        report(error, "could not read a step buffer");
      }
      const queued = watcher.pending;
      watcher.pending = [];
      for (const entry of queued) deliver(watcher, entry);
    } while (watcher.again && !watcher.closed);
    watcher.catchingUp = false;
  };

  const requestCatchUp = (watcher: Watcher) => {
    if (watcher.closed) return;
    if (watcher.catchingUp) {
      watcher.again = true;
      return;
    }
    watcher.catchingUp = true;
    void catchUp(watcher);
  };

  const onMessage = (from: string, batch: string) => {
    if (from !== channel || watchers.size === 0) return;
    // One message carries a publish batch: entries separated by newlines.
    let start = 0;
    while (start < batch.length) {
      let end = batch.indexOf("\n", start);
      if (end === -1) end = batch.length;
      onEntry(batch.slice(start, end));
      start = end + 1;
    }
  };

  const onEntry = (raw: string) => {
    const eventId = peekEventId(raw);
    const set = eventId === null ? undefined : watchers.get(eventId);
    if (!set) return;
    const entry = parseStepEntry(raw);
    if (!entry) {
      report(new Error("malformed step entry"), "ignored a malformed step message");
      return;
    }
    for (const watcher of set) {
      if (watcher.catchingUp) {
        watcher.pending.push(entry);
      } else if (entry.seq > watcher.lastSeq + 1) {
        // A gap: something was lost on the way (reconnect). The buffer has it.
        watcher.pending.push(entry);
        requestCatchUp(watcher);
      } else {
        deliver(watcher, entry);
      }
    }
  };

  const onReady = () => {
    if (!connectedBefore) {
      connectedBefore = true;
      return;
    }
    if (!subscription || closed) return;
    // Messages published while disconnected were lost by pub/sub: subscribe again, then re-read.
    subscription = null;
    subscribe().then(
      () => {
        for (const set of watchers.values()) for (const watcher of set) requestCatchUp(watcher);
      },
      (error: unknown) => report(error, "could not subscribe to steps again"),
    );
  };

  subscriber.on("message", onMessage);
  subscriber.on("ready", onReady);

  return {
    watch: (eventId, watchOptions, listener) => {
      const watcher: Watcher = {
        eventId,
        listener,
        lastSeq: Math.max(0, Math.trunc(watchOptions.afterSeq ?? 0)),
        catchingUp: true,
        pending: [],
        again: false,
        closed: false,
      };
      clearTimeout(idleTimer);
      let set = watchers.get(eventId);
      if (!set) {
        set = new Set();
        watchers.set(eventId, set);
      }
      set.add(watcher);
      subscribe().then(
        () => catchUp(watcher),
        (error: unknown) => {
          report(error, "could not subscribe to steps");
          // Still read the buffer; live messages follow once the subscriber reconnects.
          return catchUp(watcher);
        },
      );
      return () => {
        if (watcher.closed) return;
        watcher.closed = true;
        watcher.pending = [];
        const current = watchers.get(eventId);
        current?.delete(watcher);
        if (current && current.size === 0) watchers.delete(eventId);
        scheduleIdle();
      };
    },
    ready: () => subscribe(),
    listenerCount: (eventId) => {
      if (eventId !== undefined) return watchers.get(eventId)?.size ?? 0;
      let count = 0;
      for (const set of watchers.values()) count += set.size;
      return count;
    },
    close: async () => {
      closed = true;
      clearTimeout(idleTimer);
      for (const set of watchers.values()) for (const watcher of set) watcher.closed = true;
      watchers.clear();
      subscriber.off("message", onMessage);
      subscriber.off("ready", onReady);
      if (subscription && subscriber.status === "ready") {
        await subscriber.unsubscribe(channel).catch(() => undefined);
      }
      subscription = null;
    },
  };
}
