import type { JqWorkerMessage } from "./jq-messages.js";
import type { QueuedJqCall } from "./jq-queue.js";
import type { JqWorkerThread } from "./jq-worker-thread.js";

/** A batch of calls one thread is running. */
export interface RunningJob {
  id: number;
  program: string;
  calls: QueuedJqCall[];
  timer: NodeJS.Timeout;
}

/** One place in the pool: its thread (while it has one) and what it is running. */
export interface Slot {
  worker: JqWorkerThread | undefined;
  ready: boolean;
  job: RunningJob | undefined;
  /** The key whose jq `main` the thread keeps running between batches. */
  key: string | undefined;
}

/** A worker's answer to a job (everything but its "ready"). */
export type JqReply = Exclude<JqWorkerMessage, { type: "ready" }>;

export const idleSlot = (): Slot => ({
  worker: undefined,
  ready: false,
  job: undefined,
  key: undefined,
});

export const isFree = (slot: Slot) => slot.worker !== undefined && slot.ready && !slot.job;
