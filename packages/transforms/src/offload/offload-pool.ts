import { Worker } from "node:worker_threads";
import type { OffloadAnswer, OffloadTask } from "./offload-tasks.js";

export interface OffloadPoolOptions {
  threads: number;
  /** Wall-clock limit of one task on its thread; past it the thread is terminated and replaced. */
  timeoutMs: number;
  /** Heap of each thread (a task that needs more fails, the thread is replaced). */
  memoryLimitMb: number;
}

type OffloadResult = { ok: true; answer: OffloadAnswer } | { ok: false; error: string };

export interface OffloadPool {
  run(task: OffloadTask): Promise<OffloadResult>;
  close(): Promise<void>;
}

interface Call {
  task: OffloadTask;
  settle: (result: OffloadResult) => void;
  /** Stopped once at its time limit: it runs once more, then fails. */
  overran: boolean;
}

interface Slot {
  worker: Worker | undefined;
  ready: boolean;
  call: Call | undefined;
  jobId: number;
  timer: NodeJS.Timeout | undefined;
}

const WORKER_URL = new URL("./offload-worker.mjs", import.meta.url);

/**
 * Worker threads for work too costly for the event loop (pattern checks, heavy Handlebars
 * renders), one task at a time each, first come first served. A task past its time limit is
 * stopped by terminating its thread (a new one replaces it); like jq's and JavaScript's, a call
 * that overran runs once more before it fails, so a moment of CPU starvation does not fail a
 * legitimate event. Threads start on first use and never keep the process alive.
 */
export function createOffloadPool(options: OffloadPoolOptions): OffloadPool {
  const slots: Slot[] = [];
  const queue: Call[] = [];
  let nextJobId = 1;
  let closed = false;

  function spawn(slot: Slot): void {
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: options.memoryLimitMb },
    });
    worker.unref();
    slot.worker = worker;
    slot.ready = false;
    worker.on("message", (message: { ready?: true; id?: number } & Record<string, unknown>) => {
      if (slot.worker !== worker) return;
      if (message.ready) {
        slot.ready = true;
        dispatch();
        return;
      }
      if (message.id !== slot.jobId || !slot.call) return;
      const call = finish(slot);
      call.settle(
        typeof message.error === "string"
          ? { ok: false, error: message.error }
          : { ok: true, answer: message.answer as OffloadAnswer },
      );
      dispatch();
    });
    worker.on("error", (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const reason =
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? "ran out of memory"
          : "its worker thread failed";
      replace(slot, reason);
    });
    worker.on("exit", () => {
      if (slot.worker === worker) replace(slot, "its worker thread stopped");
    });
  }

  function finish(slot: Slot): Call {
    clearTimeout(slot.timer);
    const call = slot.call as Call;
    slot.call = undefined;
    return call;
  }

  /** Replaces a slot's thread; the call it was running fails with `reason` (or runs again). */
  function replace(slot: Slot, reason: string, timedOut = false): void {
    const old = slot.worker;
    const started = slot.ready;
    slot.worker = undefined;
    slot.ready = false;
    if (old) void old.terminate().catch(() => undefined);
    if (!started) {
      // The thread could not start: fail what waits rather than respawn in a tight loop.
      for (const call of queue.splice(0)) call.settle({ ok: false, error: reason });
      if (!closed) setTimeout(() => !closed && !slot.worker && spawn(slot), 1_000).unref();
      return;
    }
    if (slot.call) {
      const call = finish(slot);
      if (timedOut && !call.overran) {
        call.overran = true;
        queue.unshift(call);
      } else {
        call.settle({ ok: false, error: reason });
      }
    }
    if (!closed) spawn(slot);
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) return;
      if (!slot.worker || !slot.ready || slot.call) continue;
      const call = queue.shift() as Call;
      const jobId = nextJobId++;
      slot.call = call;
      slot.jobId = jobId;
      slot.timer = setTimeout(() => {
        if (slot.call === call) {
          replace(slot, `exceeded the ${options.timeoutMs} ms time limit`, true);
        }
      }, options.timeoutMs);
      slot.worker.postMessage({ id: jobId, task: call.task });
    }
  }

  return {
    run(task) {
      if (closed) return Promise.reject(new Error("the transform runner is closed"));
      if (slots.length === 0) {
        for (let i = 0; i < options.threads; i++) {
          const slot: Slot = {
            worker: undefined,
            ready: false,
            call: undefined,
            jobId: 0,
            timer: undefined,
          };
          slots.push(slot);
          spawn(slot);
        }
      }
      return new Promise<OffloadResult>((settle) => {
        queue.push({ task, settle, overran: false });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const stopping: Promise<unknown>[] = [];
      for (const slot of slots) {
        if (slot.call) finish(slot).settle({ ok: false, error: "the transform runner closed" });
        if (slot.worker) stopping.push(slot.worker.terminate());
        slot.worker = undefined;
      }
      for (const call of queue.splice(0)) {
        call.settle({ ok: false, error: "the transform runner closed" });
      }
      await Promise.allSettled(stopping);
    },
  };
}
