import type { Redis } from "ioredis";
import type { RedisKeys } from "../redis-keys.js";
import { subscribeAfterHandshake } from "../subscribe-after-handshake.js";
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

/** Splits a publish batch (entries separated by newlines) into its entries. */
function* batchEntries(batch: string): Generator<string> {
  let start = 0;
  while (start < batch.length) {
    let end = batch.indexOf("\n", start);
    if (end === -1) end = batch.length;
    yield batch.slice(start, end);
    start = end + 1;
  }
}

/** Hands `entry` to the watcher unless it is closed or already had it (by sequence number). */
function deliver(watcher: Watcher, entry: StepEntry, report: ErrorReport): void {
  if (watcher.closed || entry.seq <= watcher.lastSeq) return;
  watcher.lastSeq = entry.seq;
  try {
    watcher.listener(entry);
  } catch (error) {
    report(error, "step listener threw");
  }
}

type ErrorReport = (error: unknown, context: string) => void;

/**
 * The one subscription of a process to the steps channel, fanned out in memory by event id
 * (each channel message is a publish batch: entries separated by newlines).
 * A watcher subscribes first and reads the buffer second, so nothing published in between is
 * missed; sequence numbers drop what both paths delivered. After the subscriber reconnects, or
 * when a live message shows a gap, the watcher reads the buffer again to fill what pub/sub lost.
 */
export function createStepHub(options: CreateStepHubOptions): StepHub {
  const hub = new RedisStepHub(options);
  return {
    watch: (eventId, watchOptions, listener) => hub.watch(eventId, watchOptions, listener),
    ready: () => hub.subscribe(),
    listenerCount: (eventId) => hub.listenerCount(eventId),
    close: () => hub.close(),
  };
}

class RedisStepHub {
  private readonly subscriber: Redis;
  private readonly commands: Redis;
  private readonly keys: RedisKeys;
  private readonly channel: string;
  private readonly report: ErrorReport;
  private readonly watchers = new Map<string, Set<Watcher>>();
  private subscription: Promise<void> | null = null;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly onMessage = (from: string, batch: string) => this.fanOut(from, batch);
  private readonly onReady = () => this.resubscribe();

  constructor(private readonly options: CreateStepHubOptions) {
    this.subscriber = options.subscriberRedis;
    this.commands = options.commandRedis;
    this.keys = options.keys;
    this.channel = options.keys.stepsChannel;
    this.report = options.onError ?? (() => {});
    this.subscriber.on("message", this.onMessage);
    this.subscriber.on("ready", this.onReady);
  }

  watch(eventId: string, watchOptions: WatchOptions, listener: StepListener): () => void {
    const watcher: Watcher = {
      eventId,
      listener,
      lastSeq: Math.max(0, Math.trunc(watchOptions.afterSeq ?? 0)),
      catchingUp: true,
      pending: [],
      again: false,
      closed: false,
    };
    clearTimeout(this.idleTimer);
    let set = this.watchers.get(eventId);
    if (!set) {
      set = new Set();
      this.watchers.set(eventId, set);
    }
    set.add(watcher);
    this.subscribe().then(
      () => this.catchUp(watcher),
      (error: unknown) => {
        this.report(error, "could not subscribe to steps");
        // Still read the buffer; live messages follow once the subscriber reconnects.
        return this.catchUp(watcher);
      },
    );
    return () => this.unwatch(watcher);
  }

  listenerCount(eventId?: string): number {
    if (eventId !== undefined) return this.watchers.get(eventId)?.size ?? 0;
    let count = 0;
    for (const set of this.watchers.values()) count += set.size;
    return count;
  }

  subscribe(): Promise<void> {
    this.subscription ??= subscribeAfterHandshake(this.subscriber, this.channel).catch(
      (error: unknown) => {
        this.subscription = null;
        throw error;
      },
    );
    return this.subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const set of this.watchers.values()) for (const watcher of set) watcher.closed = true;
    this.watchers.clear();
    this.subscriber.off("message", this.onMessage);
    this.subscriber.off("ready", this.onReady);
    if (this.subscription && this.subscriber.status === "ready") {
      await this.subscriber.unsubscribe(this.channel).catch(() => undefined);
    }
    this.subscription = null;
  }

  private unwatch(watcher: Watcher): void {
    if (watcher.closed) return;
    watcher.closed = true;
    watcher.pending = [];
    const current = this.watchers.get(watcher.eventId);
    current?.delete(watcher);
    if (current && current.size === 0) this.watchers.delete(watcher.eventId);
    this.scheduleIdle();
  }

  private scheduleIdle(): void {
    const idleMs = this.options.idleUnsubscribeMs;
    if (idleMs === undefined || this.watchers.size > 0 || !this.subscription) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.watchers.size > 0 || !this.subscription || this.closed) return;
      this.subscription = null;
      this.subscriber
        .unsubscribe(this.channel)
        .catch((error: unknown) =>
          this.report(error, "could not drop the idle steps subscription"),
        );
    }, idleMs);
    this.idleTimer.unref();
  }

  private async catchUp(watcher: Watcher): Promise<void> {
    do {
      watcher.again = false;
      try {
        const raws = await this.commands.lrange(this.keys.stepBuffer(watcher.eventId), 0, -1);
        for (const raw of raws) {
          const entry = parseStepEntry(raw);
          if (entry) deliver(watcher, entry, this.report);
        }
      } catch (error) {
        this.report(error, "could not read a step buffer");
      }
      const queued = watcher.pending;
      watcher.pending = [];
      for (const entry of queued) deliver(watcher, entry, this.report);
    } while (watcher.again && !watcher.closed);
    watcher.catchingUp = false;
  }

  private requestCatchUp(watcher: Watcher): void {
    if (watcher.closed) return;
    if (watcher.catchingUp) {
      watcher.again = true;
      return;
    }
    watcher.catchingUp = true;
    void this.catchUp(watcher);
  }

  private fanOut(from: string, batch: string): void {
    if (from !== this.channel || this.watchers.size === 0) return;
    for (const raw of batchEntries(batch)) this.onEntry(raw);
  }

  private onEntry(raw: string): void {
    const eventId = peekEventId(raw);
    const set = eventId === null ? undefined : this.watchers.get(eventId);
    if (!set) return;
    const entry = parseStepEntry(raw);
    if (!entry) {
      this.report(new Error("malformed step entry"), "ignored a malformed step message");
      return;
    }
    for (const watcher of set) {
      if (watcher.catchingUp) {
        watcher.pending.push(entry);
      } else if (entry.seq > watcher.lastSeq + 1) {
        // A gap: something was lost on the way (reconnect). The buffer has it.
        watcher.pending.push(entry);
        this.requestCatchUp(watcher);
      } else {
        deliver(watcher, entry, this.report);
      }
    }
  }

  private resubscribe(): void {
    if (!this.subscription || this.closed) return;
    // A subscription asked for before this connection was ready may have been made on an earlier
    // connection, and pub/sub lost what was published since: subscribe again, then re-read. On a
    // first connection this costs one more SUBSCRIBE and buffer read per watcher.
    this.subscription = null;
    this.subscribe().then(
      () => {
        for (const set of this.watchers.values()) {
          for (const watcher of set) this.requestCatchUp(watcher);
        }
      },
      (error: unknown) => this.report(error, "could not subscribe to steps again"),
    );
  }
}
