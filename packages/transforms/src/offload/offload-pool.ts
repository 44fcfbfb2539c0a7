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

/** What a thread posts: `ready` once, then each job's `answer` or `error` under its `id`. */
type WorkerMessage = { ready?: true; id?: number } & Record<string, unknown>;

/** The pool's state, passed to each function below. */
interface PoolState {
  options: OffloadPoolOptions;
  /** Empty until the first task: threads start on first use. */
  slots: Slot[];
  /** Calls waiting for a free thread, first come first served. */
  queue: Call[];
  nextJobId: number;
  closed: boolean;
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
  const pool: PoolState = { options, slots: [], queue: [], nextJobId: 1, closed: false };
  return {
    run: (task) => runTask(pool, task),
    close: () => closePool(pool),
  };
}

function runTask(pool: PoolState, task: OffloadTask): Promise<OffloadResult> {
  if (pool.closed) return Promise.reject(new Error("the transform runner is closed"));
  if (pool.slots.length === 0) startThreads(pool);
  return new Promise<OffloadResult>((settle) => {
    pool.queue.push({ task, settle, overran: false });
    dispatchCalls(pool);
  });
}

async function closePool(pool: PoolState): Promise<void> {
  pool.closed = true;
  const stopping: Promise<unknown>[] = [];
  for (const slot of pool.slots) {
    if (slot.call) finishCall(slot).settle({ ok: false, error: "the transform runner closed" });
    if (slot.worker) stopping.push(slot.worker.terminate());
    slot.worker = undefined;
  }
  for (const call of pool.queue.splice(0)) {
    call.settle({ ok: false, error: "the transform runner closed" });
  }
  await Promise.allSettled(stopping);
}

function startThreads(pool: PoolState): void {
  for (let i = 0; i < pool.options.threads; i++) {
    const slot: Slot = {
      worker: undefined,
      ready: false,
      call: undefined,
      jobId: 0,
      timer: undefined,
    };
    pool.slots.push(slot);
    spawnThread(pool, slot);
  }
}

function spawnThread(pool: PoolState, slot: Slot): void {
  const worker = new Worker(WORKER_URL, {
    resourceLimits: { maxOldGenerationSizeMb: pool.options.memoryLimitMb },
  });
  worker.unref();
  slot.worker = worker;
  slot.ready = false;
  worker.on("message", (message: WorkerMessage) => {
    if (slot.worker === worker) handleWorkerMessage(pool, slot, message);
  });
  worker.on("error", (error: Error & { code?: string }) => {
    if (slot.worker !== worker) return;
    const reason =
      error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "ran out of memory" : "its worker thread failed";
    replaceThread(pool, slot, reason);
  });
  worker.on("exit", () => {
    if (slot.worker === worker) replaceThread(pool, slot, "its worker thread stopped");
  });
}

/** A message of the slot's current thread: it is ready, or it answers the job it runs. */
function handleWorkerMessage(pool: PoolState, slot: Slot, message: WorkerMessage): void {
  if (message.ready) {
    slot.ready = true;
    dispatchCalls(pool);
    return;
  }
  if (message.id !== slot.jobId || !slot.call) return;
  const call = finishCall(slot);
  call.settle(
    typeof message.error === "string"
      ? { ok: false, error: message.error }
      : { ok: true, answer: message.answer as OffloadAnswer },
  );
  dispatchCalls(pool);
}

function finishCall(slot: Slot): Call {
  clearTimeout(slot.timer);
  const call = slot.call as Call;
  slot.call = undefined;
  return call;
}

/** Replaces a slot's thread; the call it was running fails with `reason` (or runs again). */
function replaceThread(pool: PoolState, slot: Slot, reason: string, timedOut = false): void {
  const old = slot.worker;
  const started = slot.ready;
  slot.worker = undefined;
  slot.ready = false;
  if (old) void old.terminate().catch(() => undefined);
  if (!started) {
    // The thread could not start: fail what waits rather than respawn in a tight loop.
    for (const call of pool.queue.splice(0)) call.settle({ ok: false, error: reason });
    if (!pool.closed) {
      setTimeout(() => !pool.closed && !slot.worker && spawnThread(pool, slot), 1_000).unref();
    }
    return;
  }
  if (slot.call) {
    const call = finishCall(slot);
    if (timedOut && !call.overran) {
      call.overran = true;
      pool.queue.unshift(call);
    } else {
      call.settle({ ok: false, error: reason });
    }
  }
  if (!pool.closed) spawnThread(pool, slot);
}

/** Hands waiting calls to the free threads, each under its time limit. */
function dispatchCalls(pool: PoolState): void {
  const { options, queue } = pool;
  for (const slot of pool.slots) {
    if (queue.length === 0) return;
    if (!slot.worker || !slot.ready || slot.call) continue;
    const call = queue.shift() as Call;
    const jobId = pool.nextJobId++;
    slot.call = call;
    slot.jobId = jobId;
    slot.timer = setTimeout(() => {
      if (slot.call === call) {
        replaceThread(pool, slot, `exceeded the ${options.timeoutMs} ms time limit`, true);
      }
    }, options.timeoutMs);
    slot.worker.postMessage({ id: jobId, task: call.task });
  }
}
