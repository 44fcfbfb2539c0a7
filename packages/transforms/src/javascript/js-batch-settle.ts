import type { QueuedCall } from "./js-batches.js";
import type { Slot } from "./js-slots.js";
import { type SandboxCallResult, SandboxMessage } from "./sandbox-messages.js";
import { outcomeOf } from "./sandbox-process.js";

/**
 * A sandbox process's message, or undefined when it is unreadable: not a message at all, or the
 * results of the batch in flight (`job`) but not one per call.
 */
export function readAnswer(raw: unknown, job: Slot["job"]): SandboxMessage | undefined {
  const parsed = SandboxMessage.safeParse(raw);
  if (
    !parsed.success ||
    (parsed.data.type === "results" &&
      job?.id === parsed.data.id &&
      parsed.data.results.length !== job.calls.length)
  ) {
    return undefined;
  }
  return parsed.data;
}

/**
 * Settles an answered batch's calls; a call's first timeout runs it once more, alone (back at the
 * front of `queue`).
 */
export function settleResults(
  queue: QueuedCall[],
  calls: QueuedCall[],
  results: SandboxCallResult[],
  maxOutputBytes: number,
): void {
  const retries: QueuedCall[] = [];
  results.forEach((result, index) => {
    const call = calls[index] as QueuedCall;
    if (!result.ok && result.timedOut && !call.overran) {
      // One more run before failing, so a moment of CPU starvation on a busy machine does not
      // fail a legitimate event; a looping transform costs two time limits. It runs alone, so
      // the calls waiting behind it do not share its batch (and its time).
      call.overran = true;
      call.solo = true;
      retries.push(call);
    } else {
      call.settle(outcomeOf(result, maxOutputBytes));
    }
  });
  queue.unshift(...retries);
}

/**
 * Settles the calls of a batch whose process was lost: a call that was alone in flight fails with
 * `reason`; the calls of a batch go back to the front of `queue`, each to run alone, so the one
 * that brought the process down fails by itself and the others get their results.
 */
export function settleLostBatch(queue: QueuedCall[], calls: QueuedCall[], reason: string): void {
  if (calls.length === 1) {
    calls[0]?.settle({ ok: false, error: reason });
  } else {
    for (const call of calls) call.solo = true;
    queue.unshift(...calls);
  }
}

/** Fails the slot's calls in flight and kills its process; resolves when it has exited. */
export function stopSlot(slot: Slot): Promise<unknown> {
  if (slot.job) {
    clearTimeout(slot.job.timer);
    for (const call of slot.job.calls) {
      call.settle({ ok: false, error: "the transform runner closed" });
    }
    slot.job = undefined;
  }
  const child = slot.child;
  slot.child = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The process is unref'd; held again until it exits, or a process with nothing else to do
  // would end before `close` resolves.
  child.ref();
  child.kill("SIGKILL");
  return exited;
}
