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
}

/** Input JSON per batch; a single larger call still goes, alone. */
const MAX_BATCH_INPUT_CHARS = 1024 * 1024;

/**
 * Takes the next calls for a free process out of `free` free ones: a call that must run alone
 * goes alone; otherwise what waits is shared among the free processes (so none idles while
 * another has a queue), up to `maxBatch` calls and about 1 MB of input.
 */
export function takeBatch(
  queue: QueuedCall[],
  limits: { free: number; maxBatch: number },
): QueuedCall[] {
  const head = queue[0];
  if (!head || head.solo) return queue.splice(0, 1);
  const limit = Math.min(limits.maxBatch, Math.ceil(queue.length / Math.max(1, limits.free)));
  let count = 0;
  let chars = 0;
  for (const call of queue) {
    if (count === limit || call.solo) break;
    if (count > 0 && chars + call.inputJson.length > MAX_BATCH_INPUT_CHARS) break;
    chars += call.inputJson.length;
    count++;
  }
  return queue.splice(0, count);
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
