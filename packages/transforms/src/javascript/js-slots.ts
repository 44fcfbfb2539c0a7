import type { ChildProcess } from "node:child_process";
import type { RecentRuns } from "../gather.js";
import type { ProcessState, QueuedCall } from "./js-batches.js";

/** One place in the sandbox pool: its process (while it has one) and the batch it runs. */
export interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  job: { id: number; calls: QueuedCall[]; timer: NodeJS.Timeout; startedAtMs: number } | undefined;
  /** Its recent batches: whether its next one waits to gather calls. */
  runs: RecentRuns | undefined;
}

export const idleSlot = (): Slot => ({
  child: undefined,
  ready: false,
  job: undefined,
  runs: undefined,
});
export const isFree = (slot: Slot) => slot.child !== undefined && slot.ready && !slot.job;

/** What a slot can do for the calls queued for it: run them now, soon, or not at all. */
export function stateOf(slot: Slot | undefined): ProcessState {
  if (slot?.child === undefined || !slot.ready) return { state: "down" };
  return slot.job ? { state: "busy", sinceMs: slot.job.startedAtMs } : { state: "free" };
}
