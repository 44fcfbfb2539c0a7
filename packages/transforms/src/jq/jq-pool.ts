import { receiveMessageOnPort } from "node:worker_threads";
import type { TransformOutcome } from "../types.js";
import { type JqJob, JqWorkerMessage } from "./jq-messages.js";
import {
  buildBatchInput,
  describeJqFailure,
  parseBatchOutput,
  wrapJqProgram,
} from "./jq-program.js";
import { createJqQueue, createKeyRunTracker, type QueuedJqCall } from "./jq-queue.js";
import {
  compileJqModule,
  type JqWorkerThread,
  startJqWorker,
  type WasmModule,
} from "./jq-worker-thread.js";

export interface JqPoolOptions {
  workers: number;
  timeoutMs: number;
  maxBatch: number;
  maxBatchBytes: number;
  recycleMemoryBytes: number;
  /** jq's WebAssembly memory may not grow past this: a program needing more fails. */
  memoryLimitBytes: number;
  maxOutputBytes: number;
  /**
   * Runs of a key under load start at most this often, so calls gather into batches: a batch
   * costs about 0.25 ms besides its inputs (about 0.07 ms each). A lone call starts at once.
   * 0: never wait (calls still share a run while their key's previous one is in flight).
   */
  gatherMs: number;
}

export interface JqPool {
  /** Runs `program` on the payload (JSON text); `key` groups calls that may share a run. */
  run(key: string, program: string, inputJson: string): Promise<TransformOutcome>;
  close(): Promise<void>;
}

interface RunningJob {
  id: number;
  program: string;
  calls: QueuedJqCall[];
  timer: NodeJS.Timeout;
}

interface Slot {
  worker: JqWorkerThread | undefined;
  ready: boolean;
  job: RunningJob | undefined;
  /** The key whose jq `main` the thread keeps running between batches. */
  key: string | undefined;
}

/**
 * jq (WebAssembly) on a pool of worker threads, off the event loop. Calls of one webhook with the
 * same program are batched into one jq run; a run past its time limit is stopped by terminating
 * its thread, which is replaced, and the calls of a failed batch are retried one by one so only
 * the offending event fails.
 */
export function createJqPool(options: JqPoolOptions): JqPool {
  const queue = createJqQueue(options);
  const slots: Slot[] = Array.from({ length: options.workers }, () => ({
    worker: undefined,
    ready: false,
    job: undefined,
    key: undefined,
  }));
  let wasmModule: Promise<WasmModule> | undefined;
  let nextJobId = 1;
  let started = false;
  let closed = false;
  let startupFailures = 0;

  function loadModule(): Promise<WasmModule> {
    wasmModule ??= compileJqModule();
    return wasmModule;
  }

  function spawn(slot: Slot): void {
    slot.ready = false;
    slot.worker = undefined;
    slot.key = undefined;
    loadModule().then(
      (module) => {
        if (closed || slot.worker) return;
        const worker: JqWorkerThread = startJqWorker(module, options.memoryLimitBytes, {
          onMessage: (raw) => onMessage(slot, worker, raw),
          onCrash: (reason) => onCrash(slot, worker, reason),
        });
        slot.worker = worker;
      },
      (error: unknown) => {
        wasmModule = undefined;
        failStartup(slot, `jq is unavailable: ${String(error)}`);
      },
    );
  }

  /** A worker that cannot start fails what waits instead of respawning in a tight loop. */
  function failStartup(slot: Slot, error: string): void {
    startupFailures++;
    if (startupFailures < 3) {
      spawn(slot);
      return;
    }
    for (const call of queue.drain()) call.settle({ ok: false, error });
    setTimeout(() => !closed && !slot.worker && spawn(slot), 1_000).unref();
  }

  function onMessage(slot: Slot, worker: JqWorkerThread, raw: unknown): void {
    if (slot.worker !== worker) return;
    const parsed = JqWorkerMessage.safeParse(raw);
    if (!parsed.success) {
      replace(slot, "jq worker sent an unreadable message");
      return;
    }
    const message = parsed.data;
    if (message.type === "ready") {
      slot.ready = true;
      startupFailures = 0;
      dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    runEnded(job);
    switch (message.type) {
      case "done": {
        const failure =
          message.exitCode === 0 ? undefined : describeJqFailure(message.stderr, job.program);
        const outcomes = parseBatchOutput(
          message.stdout,
          job.calls.length,
          options.maxOutputBytes,
          failure,
        );
        job.calls.forEach((call, index) => {
          call.settle(outcomes[index] as TransformOutcome);
        });
        if (message.memoryBytes > options.recycleMemoryBytes) replace(slot);
        break;
      }
      case "too_large":
        failJob(job, `jq output exceeds the ${options.maxOutputBytes}-byte limit`);
        if (message.memoryBytes > options.recycleMemoryBytes) replace(slot);
        break;
      case "fatal":
        failJob(job, "jq program ran out of memory");
        replace(slot);
        return;
    }
    dispatch();
  }

  function onCrash(slot: Slot, worker: JqWorkerThread, reason: string): void {
    if (slot.worker !== worker) return;
    if (slot.ready) {
      replace(slot, reason);
      return;
    }
    slot.worker = undefined;
    void worker.worker.terminate().catch(() => undefined);
    failStartup(slot, reason);
  }

  /** Replaces a slot's worker; a job it was running fails with `reason`. */
  function replace(slot: Slot, reason = "jq worker replaced", timedOut = false): void {
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      runEnded(job);
      failJob(job, reason, timedOut);
    }
    const old = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    if (old) void old.worker.terminate().catch(() => undefined);
    if (!closed) spawn(slot);
    dispatch();
  }

  /**
   * A batch that failed as a whole is retried call by call, so only the culprit fails. A call
   * that overran alone runs once more on a fresh thread before it fails, so a moment of CPU
   * starvation on a busy machine does not fail a legitimate event.
   */
  function failJob(job: RunningJob, error: string, timedOut = false): void {
    const [only, ...others] = job.calls;
    if (!only) return;
    if (others.length > 0) {
      for (const call of job.calls) queue.pushAlone(call);
    } else if (timedOut && !only.overran) {
      only.overran = true;
      queue.pushAlone(only);
    } else {
      only.settle({ ok: false, error });
    }
  }

  const keyRuns = createKeyRunTracker(options.gatherMs);
  let gatherTimer: NodeJS.Timeout | undefined;
  let gatherDueAt = 0;

  function dispatch(): void {
    while (!closed && queue.size() > 0) {
      const free = slots.filter((slot) => slot.worker && slot.ready && !slot.job);
      if (free.length === 0) return;
      const now = performance.now();
      const calls = queue.next((key, full) => keyRuns.waitMs(key, full, now) === 0);
      if (!calls) {
        scheduleGather(now);
        return;
      }
      const key = (calls[0] as QueuedJqCall).key;
      keyRuns.started(key, calls.length, now);
      // The thread already running this key's jq `main` continues it; otherwise one running none,
      // or else any (its `main` ends and a new one starts).
      const slot =
        free.find((candidate) => candidate.key === key) ??
        free.find((candidate) => candidate.key === undefined) ??
        (free[0] as Slot);
      start(slot, slot.worker as JqWorkerThread, calls);
    }
  }

  /** A run is over: calls of its key that queued meanwhile mean the key is under load. */
  function runEnded(job: RunningJob): void {
    const key = (job.calls[0] as QueuedJqCall).key;
    keyRuns.ended(key, queue.waiting(key));
  }

  /** Calls wait only for their key's gather window: dispatch again when the first one ends. */
  function scheduleGather(now: number): void {
    let waitMs = Number.POSITIVE_INFINITY;
    for (const key of queue.keys()) {
      waitMs = Math.min(waitMs, keyRuns.waitMs(key, false, now));
    }
    // Keys with a run in flight are dispatched when it ends.
    if (!Number.isFinite(waitMs)) return;
    const dueAt = now + waitMs;
    if (gatherTimer && gatherDueAt <= dueAt) return;
    clearTimeout(gatherTimer);
    gatherDueAt = dueAt;
    gatherTimer = setTimeout(
      () => {
        gatherTimer = undefined;
        dispatch();
      },
      Math.max(1, Math.ceil(waitMs)),
    );
  }

  function start(slot: Slot, worker: JqWorkerThread, calls: QueuedJqCall[]): void {
    const { program, key } = calls[0] as QueuedJqCall;
    const id = nextJobId++;
    const timer = setTimeout(() => {
      // A reply may have arrived while the event loop was busy: take it before judging.
      for (let reply = receiveMessageOnPort(worker.replies); reply; ) {
        onMessage(slot, worker, reply.message);
        reply = slot.worker === worker ? receiveMessageOnPort(worker.replies) : undefined;
      }
      if (slot.job?.id === id) {
        replace(slot, `jq program exceeded the ${options.timeoutMs} ms time limit`, true);
      }
    }, options.timeoutMs);
    slot.job = { id, program, calls, timer };
    slot.key = key;
    const job: JqJob = {
      type: "job",
      id,
      key,
      program: wrapJqProgram(program),
      stdin: buildBatchInput(calls.map((call) => call.inputJson)),
      maxStdoutChars: calls.length * (options.maxOutputBytes + 64),
    };
    worker.send(job);
  }

  return {
    run(key, program, inputJson) {
      if (closed) return Promise.reject(new Error("the transform runner is closed"));
      if (!started) {
        started = true;
        for (const slot of slots) spawn(slot);
      }
      return new Promise<TransformOutcome>((settle) => {
        queue.push({ key, program, inputJson, settle });
        dispatch();
      });
    },
    async close() {
      closed = true;
      clearTimeout(gatherTimer);
      const stopping: Promise<unknown>[] = [];
      for (const slot of slots) {
        if (slot.job) {
          clearTimeout(slot.job.timer);
          for (const call of slot.job.calls)
            call.settle({ ok: false, error: "the transform runner closed" });
          slot.job = undefined;
        }
        if (slot.worker) stopping.push(slot.worker.worker.terminate());
        slot.worker = undefined;
      }
      for (const call of queue.drain())
        call.settle({ ok: false, error: "the transform runner closed" });
      await Promise.allSettled(stopping);
    },
  };
}
