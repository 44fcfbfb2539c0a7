import { receiveMessageOnPort } from "node:worker_threads";
import type { TransformOutcome } from "../types.js";
import { WakeTimer } from "../wake-timer.js";
import { failJob, jobCommand, settleJob } from "./jq-job.js";
import { JqWorkerMessage } from "./jq-messages.js";
import type { JqPool, JqPoolOptions } from "./jq-pool-options.js";
import { createJqQueue, createKeyRunTracker, type QueuedJqCall } from "./jq-queue.js";
import { idleSlot, isFree, type RunningJob, type Slot } from "./jq-slots.js";
import {
  compileJqModule,
  type JqWorkerThread,
  startJqWorker,
  type WasmModule,
} from "./jq-worker-thread.js";

const CLOSED = "the transform runner closed";

/**
 * jq (WebAssembly) on a pool of worker threads, off the event loop. Calls of one webhook with the
 * same program are batched into one jq run; a run past its time limit is stopped by terminating
 * its thread, which is replaced, and the calls of a failed batch are retried one by one so only
 * the offending event fails.
 */
export function createJqPool(options: JqPoolOptions): JqPool {
  return new JqThreadPool(options);
}

class JqThreadPool implements JqPool {
  private readonly queue: ReturnType<typeof createJqQueue>;
  private readonly slots: Slot[];
  private readonly keyRuns: ReturnType<typeof createKeyRunTracker>;
  private wasmModule: Promise<WasmModule> | undefined;
  private nextJobId = 1;
  private started = false;
  private closed = false;
  private startupFailures = 0;
  /** Dispatches again when the first gather window of a waiting key ends. */
  private readonly gatherWake = new WakeTimer(() => this.dispatch());

  constructor(private readonly options: JqPoolOptions) {
    this.queue = createJqQueue(options);
    this.slots = Array.from({ length: options.workers }, idleSlot);
    this.keyRuns = createKeyRunTracker(options.gatherMs);
  }

  run(key: string, program: string, inputJson: string): Promise<TransformOutcome> {
    if (this.closed) return Promise.reject(new Error("the transform runner is closed"));
    if (!this.started) {
      this.started = true;
      for (const slot of this.slots) this.spawn(slot);
    }
    return new Promise<TransformOutcome>((settle) => {
      this.queue.push({ key, program, inputJson, settle });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.gatherWake.clear();
    const stopping: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      if (slot.job) {
        clearTimeout(slot.job.timer);
        for (const call of slot.job.calls) call.settle({ ok: false, error: CLOSED });
        slot.job = undefined;
      }
      if (slot.worker) stopping.push(slot.worker.worker.terminate());
      slot.worker = undefined;
    }
    for (const call of this.queue.drain()) call.settle({ ok: false, error: CLOSED });
    await Promise.allSettled(stopping);
  }

  private loadModule(): Promise<WasmModule> {
    this.wasmModule ??= compileJqModule();
    return this.wasmModule;
  }

  private spawn(slot: Slot): void {
    slot.ready = false;
    slot.worker = undefined;
    slot.key = undefined;
    this.loadModule().then(
      (module) => {
        if (this.closed || slot.worker) return;
        const worker: JqWorkerThread = startJqWorker(module, this.options.memoryLimitBytes, {
          onMessage: (raw) => this.onMessage(slot, worker, raw),
          onCrash: (reason) => this.onCrash(slot, worker, reason),
        });
        slot.worker = worker;
      },
      (error: unknown) => {
        this.wasmModule = undefined;
        this.failStartup(slot, `jq is unavailable: ${String(error)}`);
      },
    );
  }

  /** A worker that cannot start fails what waits instead of respawning in a tight loop. */
  private failStartup(slot: Slot, error: string): void {
    this.startupFailures++;
    if (this.startupFailures < 3) {
      this.spawn(slot);
      return;
    }
    for (const call of this.queue.drain()) call.settle({ ok: false, error });
    setTimeout(() => !this.closed && !slot.worker && this.spawn(slot), 1_000).unref();
  }

  private onMessage(slot: Slot, worker: JqWorkerThread, raw: unknown): void {
    if (slot.worker !== worker) return;
    const parsed = JqWorkerMessage.safeParse(raw);
    if (!parsed.success) {
      this.replace(slot, "jq worker sent an unreadable message");
      return;
    }
    const message = parsed.data;
    if (message.type === "ready") {
      slot.ready = true;
      this.startupFailures = 0;
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    this.runEnded(job);
    const thread = settleJob(this.queue, job, message, this.options);
    // `replace` dispatches too.
    if (thread !== "keep") this.replace(slot);
    if (thread !== "lost") this.dispatch();
  }

  private onCrash(slot: Slot, worker: JqWorkerThread, reason: string): void {
    if (slot.worker !== worker) return;
    if (slot.ready) {
      this.replace(slot, reason);
      return;
    }
    slot.worker = undefined;
    void worker.worker.terminate().catch(() => undefined);
    this.failStartup(slot, reason);
  }

  /** Replaces a slot's worker; a job it was running fails with `reason`. */
  private replace(slot: Slot, reason = "jq worker replaced", timedOut = false): void {
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      this.runEnded(job);
      failJob(this.queue, job, reason, timedOut);
    }
    const old = slot.worker;
    slot.worker = undefined;
    slot.ready = false;
    if (old) void old.worker.terminate().catch(() => undefined);
    if (!this.closed) this.spawn(slot);
    this.dispatch();
  }

  private dispatch(): void {
    while (!this.closed && this.queue.size() > 0) {
      const free = this.slots.filter(isFree);
      if (free.length === 0) return;
      const now = performance.now();
      const calls = this.queue.next((key, full) => this.keyRuns.waitMs(key, full, now) === 0);
      if (!calls) {
        this.scheduleGather(now);
        return;
      }
      const key = (calls[0] as QueuedJqCall).key;
      this.keyRuns.started(key, calls.length, now);
      // The thread already running this key's jq `main` continues it; otherwise one running none,
      // or else any (its `main` ends and a new one starts).
      const slot =
        free.find((candidate) => candidate.key === key) ??
        free.find((candidate) => candidate.key === undefined) ??
        (free[0] as Slot);
      this.start(slot, slot.worker as JqWorkerThread, calls);
    }
  }

  /** A run is over: calls of its key that queued meanwhile mean the key is under load. */
  private runEnded(job: RunningJob): void {
    const key = (job.calls[0] as QueuedJqCall).key;
    this.keyRuns.ended(key, this.queue.waiting(key));
  }

  /** Calls wait only for their key's gather window: dispatch again when the first one ends. */
  private scheduleGather(now: number): void {
    let waitMs = Number.POSITIVE_INFINITY;
    for (const key of this.queue.keys()) {
      waitMs = Math.min(waitMs, this.keyRuns.waitMs(key, false, now));
    }
    // Keys with a run in flight are dispatched when it ends.
    if (!Number.isFinite(waitMs)) return;
    this.gatherWake.wakeIn(waitMs, now);
  }

  private start(slot: Slot, worker: JqWorkerThread, calls: QueuedJqCall[]): void {
    const { program, key } = calls[0] as QueuedJqCall;
    const id = this.nextJobId++;
    const timer = setTimeout(() => this.onTimeout(slot, worker, id), this.options.timeoutMs);
    slot.job = { id, program, calls, timer };
    slot.key = key;
    worker.send(jobCommand(id, key, program, calls, this.options.maxOutputBytes));
  }

  private onTimeout(slot: Slot, worker: JqWorkerThread, id: number): void {
    // A reply may have arrived while the event loop was busy: take it before judging.
    for (let reply = receiveMessageOnPort(worker.replies); reply; ) {
      this.onMessage(slot, worker, reply.message);
      reply = slot.worker === worker ? receiveMessageOnPort(worker.replies) : undefined;
    }
    if (slot.job?.id === id) {
      const limit = this.options.timeoutMs;
      this.replace(slot, `jq program exceeded the ${limit} ms time limit`, true);
    }
  }
}
