import type { TransformOutcome } from "../types.js";
import type { SandboxBatch } from "./sandbox-messages.js";

/** A JavaScript call waiting for a sandbox process. */
export interface QueuedCall {
  /** The node the call belongs to: calls of different scopes never share a context. */
  scope: string;
  code: string;
  inputJson: string;
  settle(outcome: TransformOutcome): void;
  /** Set once the call overran its time limit (it gets one more run). */
  overran?: boolean;
  /** Set once the call was in a batch whose process died: it now runs alone. */
  solo?: boolean;
  /** The sandbox process the call's node prefers (where its warm context most likely is). */
  home: number;
  /** When the call was queued (performance.now()). */
  queuedAtMs: number;
}

/**
 * How long a home process may run one batch before another free process takes calls that wait
 * for it: the home most likely has their node's warm context, and calls that gather meanwhile go
 * in one message (each message costs both processes far more than a call in it). A batch of
 * ordinary calls takes well under this even when the machine is busy (at 5 ms, a third of the
 * benchmark's calls moved, each move a smaller batch); a home past it is busy with slow code,
 * and its calls move.
 */
export const STEAL_AFTER_MS = 25;

/**
 * The process a node's calls prefer: a stable hash of its scope, so each process keeps warm
 * contexts for its share of the nodes instead of every process for all of them.
 */
export function homeProcess(scope: string, processes: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < scope.length; index++) {
    hash ^= scope.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % Math.max(1, processes);
}

/** Input JSON per batch; a single larger call still goes, alone. */
const MAX_BATCH_INPUT_CHARS = 1024 * 1024;

/** Whether a process can serve calls now: gone or starting, running a batch (since when), or free. */
export type ProcessState =
  | { state: "down" }
  | { state: "free" }
  | { state: "busy"; sinceMs: number };

/**
 * Takes the next calls for free process `process` out of `free` free ones: a call that must run
 * alone goes alone; otherwise the waiting calls whose home is this process, in order, up to
 * `maxBatch` calls and about 1 MB of input. When none is, it takes the oldest calls whatever their
 * home, up to a fair share of the queue (so no process idles while another has a backlog), but only
 * once the oldest call's home cannot serve it, the queue holds a full batch, or its home has been
 * running one batch for `STEAL_AFTER_MS`; until then, and while its home is free (gathering
 * calls, see gather.ts), it takes nothing.
 */
export function takeBatch(
  queue: QueuedCall[],
  limits: {
    free: number;
    maxBatch: number;
    process: number;
    nowMs: number;
    homeState: (home: number) => ProcessState;
  },
): QueuedCall[] {
  const head = queue[0];
  if (!head || head.solo) return queue.splice(0, 1);
  const own = pick(queue, limits.maxBatch, (call) => call.home === limits.process);
  if (own.length > 0) return own;
  const limit = Math.min(limits.maxBatch, Math.ceil(queue.length / Math.max(1, limits.free)));
  const home = limits.homeState(head.home);
  const steal =
    home.state === "down" ||
    queue.length >= limits.maxBatch ||
    (home.state === "busy" && limits.nowMs - home.sinceMs >= STEAL_AFTER_MS);
  return steal ? pick(queue, limit, () => true) : [];
}

/** Calls waiting for process `process` (its own, not counting those that must run alone). */
export function waitingFor(queue: readonly QueuedCall[], process: number): number {
  let count = 0;
  for (const call of queue) if (call.home === process && !call.solo) count++;
  return count;
}

/** Removes and returns the first calls `wanted` accepts, stopping at a call that must run alone. */
function pick(
  queue: QueuedCall[],
  limit: number,
  wanted: (call: QueuedCall) => boolean,
): QueuedCall[] {
  const taken: QueuedCall[] = [];
  let chars = 0;
  for (let index = 0; index < queue.length && taken.length < limit; ) {
    const call = queue[index] as QueuedCall;
    if (call.solo) break;
    if (!wanted(call)) {
      index++;
      continue;
    }
    if (taken.length > 0 && chars + call.inputJson.length > MAX_BATCH_INPUT_CHARS) break;
    chars += call.inputJson.length;
    taken.push(call);
    queue.splice(index, 1);
  }
  return taken;
}

/** One message for a batch: each distinct program (scope and code) once, then the calls by index. */
export function batchMessage(id: number, calls: readonly QueuedCall[]): SandboxBatch {
  const programs: [string, string][] = [];
  const index = new Map<string, number>();
  const entries = calls.map((call): [number, string] => {
    const key = `${call.scope}\u0000${call.code}`;
    let program = index.get(key);
    if (program === undefined) {
      program = programs.push([call.scope, call.code]) - 1;
      index.set(key, program);
    }
    return [program, call.inputJson];
  });
  return { id, programs, calls: entries };
}
