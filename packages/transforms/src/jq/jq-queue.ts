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
  /** The next batch: calls of one key, oldest key first, keys taking turns. */
  next(): QueuedJqCall[] | undefined;
  /** True when the next batch is a retry run alone, or already as large as a batch may be. */
  nextIsFull(): boolean;
  /** Calls waiting. */
  size(): number;
  drain(): QueuedJqCall[];
}

export function createJqQueue(limits: { maxBatch: number; maxBatchBytes: number }): JqQueue {
  const alone: QueuedJqCall[] = [];
  const groups = new Map<string, QueuedJqCall[]>();
  return {
    push(call) {
      const group = groups.get(call.key);
      if (group) group.push(call);
      else groups.set(call.key, [call]);
    },
    pushAlone(call) {
      alone.push(call);
    },
    next() {
      const single = alone.shift();
      if (single) return [single];
      const first = groups.entries().next();
      if (first.done) return undefined;
      const [key, group] = first.value;
      let bytes = 0;
      let count = 0;
      while (count < group.length && count < limits.maxBatch) {
        const size = (group[count] as QueuedJqCall).inputJson.length;
        if (count > 0 && bytes + size > limits.maxBatchBytes) break;
        bytes += size;
        count++;
      }
      const batch = group.splice(0, count);
      groups.delete(key);
      if (group.length > 0) groups.set(key, group);
      return batch;
    },
    nextIsFull() {
      if (alone.length > 0) return true;
      const first = groups.values().next();
      if (first.done) return false;
      let bytes = 0;
      for (const call of first.value) bytes += call.inputJson.length;
      return first.value.length >= limits.maxBatch || bytes >= limits.maxBatchBytes;
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
 * How long a free worker waits before starting the next batch: calls gather while another run is
 * busy, for up to `gatherMs` after the last run started, unless the batch is full already. A
 * quiet pool (nothing running) never waits. 0: start now.
 */
export function gatherWaitMs(state: {
  nowMs: number;
  lastStartAtMs: number;
  gatherMs: number;
  otherRunBusy: boolean;
  nextIsFull: boolean;
}): number {
  if (!state.otherRunBusy || state.nextIsFull) return 0;
  return Math.max(0, state.lastStartAtMs + state.gatherMs - state.nowMs);
}
