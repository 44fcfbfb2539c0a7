import { gatherWaitMs, type RecentRuns } from "../gather.js";
import type { TransformOutcome } from "../types.js";

/** A jq call waiting for a worker. */
export interface QueuedJqCall {
  /** Calls with the same key (webhook and program) may share a run. */
  key: string;
  program: string;
  inputJson: string;
  settle(outcome: TransformOutcome): void;
  /** Set once the call, run alone, overran its time limit (it gets one more run). */
  overran?: boolean;
}

export interface JqQueue {
  push(call: QueuedJqCall): void;
  /** Queues a call to run alone, ahead of the rest (a retry after its batch failed). */
  pushAlone(call: QueuedJqCall): void;
  /**
   * The next batch: a call queued alone, else the calls of the oldest key that `ready` accepts
   * (told whether its batch is already as large as a batch may be); keys take turns.
   */
  next(ready?: (key: string, full: boolean) => boolean): QueuedJqCall[] | undefined;
  /** Keys with calls waiting. */
  keys(): IterableIterator<string>;
  /** Calls of a key waiting (not counting those queued alone). */
  waiting(key: string): number;
  /** Calls waiting. */
  size(): number;
  drain(): QueuedJqCall[];
}

export function createJqQueue(limits: { maxBatch: number; maxBatchBytes: number }): JqQueue {
  const alone: QueuedJqCall[] = [];
  const groups = new Map<string, QueuedJqCall[]>();

  /** How many of the group's first calls fit a batch, and whether they fill it. */
  function batchSize(group: QueuedJqCall[]): { count: number; full: boolean } {
    let bytes = 0;
    let count = 0;
    while (count < group.length && count < limits.maxBatch) {
      const size = (group[count] as QueuedJqCall).inputJson.length;
      if (count > 0 && bytes + size > limits.maxBatchBytes) return { count, full: true };
      bytes += size;
      count++;
    }
    return { count, full: count >= limits.maxBatch || bytes >= limits.maxBatchBytes };
  }

  return {
    push(call) {
      const group = groups.get(call.key);
      if (group) group.push(call);
      else groups.set(call.key, [call]);
    },
    pushAlone(call) {
      alone.push(call);
    },
    next(ready) {
      const single = alone.shift();
      if (single) return [single];
      for (const [key, group] of groups) {
        const { count, full } = batchSize(group);
        if (ready && !ready(key, full)) continue;
        const batch = group.splice(0, count);
        groups.delete(key);
        if (group.length > 0) groups.set(key, group);
        return batch;
      }
      return undefined;
    },
    keys() {
      return groups.keys();
    },
    waiting(key) {
      return groups.get(key)?.length ?? 0;
    },
    size() {
      let count = alone.length;
      for (const group of groups.values()) count += group.length;
      return count;
    },
    drain() {
      const all = [...alone, ...[...groups.values()].flat()];
      alone.length = 0;
      groups.clear();
      return all;
    },
  };
}

/** The pool's memory of each key's recent runs, which decides when a key's next batch may start. */
export interface KeyRunTracker {
  /** A batch of `calls` calls of the key started now. */
  started(key: string, calls: number, nowMs: number): void;
  /** The key's run ended; `waiting` calls of the key queued meanwhile. */
  ended(key: string, waiting: number): void;
  /** How long the key's next batch waits (see `gatherWaitMs`). */
  waitMs(key: string, full: boolean, nowMs: number): number;
  /** Keys remembered (those past the window with nothing in flight are forgotten). */
  readonly size: number;
}

export function createKeyRunTracker(gatherMs: number): KeyRunTracker {
  /** Oldest start first, so forgetting stops at the first entry that still matters. */
  const runs = new Map<string, RecentRuns>();
  return {
    started(key, calls, nowMs) {
      runs.delete(key);
      runs.set(key, { lastStartAtMs: nowMs, inFlight: true, loaded: calls > 1 });
      for (const [oldKey, old] of runs) {
        if (old.inFlight || old.lastStartAtMs + gatherMs > nowMs) break;
        runs.delete(oldKey);
      }
    },
    ended(key, waiting) {
      const entry = runs.get(key);
      if (!entry) return;
      entry.inFlight = false;
      if (waiting > 0) entry.loaded = true;
    },
    waitMs(key, full, nowMs) {
      return gatherWaitMs({ nowMs, runs: runs.get(key), gatherMs, full });
    },
    get size() {
      return runs.size;
    },
  };
}
