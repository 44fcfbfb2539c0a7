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

/**
 * How long a key's next batch waits: while calls of one key (a webhook's program) keep coming, its
 * runs start at most every `gatherMs`, so the calls arriving meanwhile share the next run. A key
 * that has not started a run within `gatherMs` (a quiet key) starts at once, and so does a full
 * batch. 0: start now.
 */
export function gatherWaitMs(state: {
  nowMs: number;
  /** When the key's last run started; undefined if not within memory. */
  lastStartAtMs: number | undefined;
  gatherMs: number;
  full: boolean;
}): number {
  if (state.full || state.lastStartAtMs === undefined) return 0;
  return Math.max(0, state.lastStartAtMs + state.gatherMs - state.nowMs);
}
