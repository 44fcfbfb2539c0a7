import type { ChildProcess } from "node:child_process";
import { gatherWaitMs } from "../gather.js";
import type { TransformOutcome } from "../types.js";
import { WakeTimer } from "../wake-timer.js";
import { readAnswer, settleLostBatch, settleResults, stopSlot } from "./js-batch-settle.js";
import {
  batchMessage,
  homeProcess,
  type ProcessState,
  type QueuedCall,
  STEAL_AFTER_MS,
  takeBatch,
  waitingFor,
} from "./js-batches.js";
import { hostConfigOf, type JsPool, type JsPoolOptions } from "./js-pool-options.js";
import { idleSlot, isFree, type Slot, stateOf } from "./js-slots.js";
import { startSandboxProcess } from "./sandbox-process.js";

export type { JsPool, JsPoolOptions } from "./js-pool-options.js";

/**
 * JavaScript transforms in isolated-vm isolates hosted by sandbox processes. A free process takes
 * the calls waiting in the queue (up to `maxBatch`, shared among the free processes) in one
 * message, runs them one after another and answers in one message: at low load each call goes
 * alone, without waiting; a process under load starts a batch at most every `gatherMs`, so the
 * calls arriving meanwhile share a message (each message costs both processes far more than a
 * call in it). isolated-vm contains time and memory limits, but a single huge allocation can
 * still abort V8 itself; in a separate process that costs only the calls in flight, and those of
 * a batch run again, each alone, so only the culprit fails. A process that crashes or stops
 * answering is replaced.
 */
export function createJsPool(options: JsPoolOptions): JsPool {
  return new SandboxPool(options);
}

class SandboxPool implements JsPool {
  private readonly slots: Slot[];
  private readonly queue: QueuedCall[] = [];
  private readonly hostConfig: string;
  private nextId = 1;
  private started = false;
  private closed = false;
  private startupFailures = 0;
  /** Re-dispatches when a gathering process's window ends or a busy home's calls may be taken. */
  private readonly wake = new WakeTimer(() => this.dispatch());

  constructor(private readonly options: JsPoolOptions) {
    this.slots = Array.from({ length: options.processes }, idleSlot);
    this.hostConfig = hostConfigOf(options);
  }

  run(scope: string, code: string, inputJson: string): Promise<TransformOutcome> {
    if (this.closed) return Promise.reject(new Error("the transform runner is closed"));
    if (!this.started) {
      this.started = true;
      for (const slot of this.slots) this.spawn(slot);
    }
    return new Promise<TransformOutcome>((settle) => {
      this.queue.push({
        scope,
        code,
        inputJson,
        settle,
        home: homeProcess(scope, this.slots.length),
        queuedAtMs: performance.now(),
      });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake.clear();
    const exits = this.slots.map((slot) => stopSlot(slot));
    for (const call of this.queue.splice(0)) {
      call.settle({ ok: false, error: "the transform runner closed" });
    }
    await Promise.all(exits);
  }

  private spawn(slot: Slot): void {
    const child = startSandboxProcess(this.hostConfig, {
      message: (raw) => this.onMessage(slot, child, raw),
      exit: () => this.onExit(slot, child),
    });
    slot.child = child;
    slot.ready = false;
  }

  private onMessage(slot: Slot, child: ChildProcess, raw: unknown): void {
    if (slot.child !== child) return;
    const job = slot.job;
    const message = readAnswer(raw, job);
    if (!message) {
      this.replace(slot, "the JavaScript sandbox sent an unreadable message");
      return;
    }
    if (message.type === "ready") {
      slot.ready = true;
      this.startupFailures = 0;
      this.dispatch();
      return;
    }
    if (!job || job.id !== message.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if (slot.runs) {
      slot.runs.inFlight = false;
      if (waitingFor(this.queue, this.slots.indexOf(slot)) > 0) slot.runs.loaded = true;
    }
    settleResults(this.queue, job.calls, message.results, this.options.maxOutputBytes);
    this.dispatch();
  }

  private onExit(slot: Slot, child: ChildProcess): void {
    if (slot.child !== child) return;
    if (!slot.ready && !slot.job) {
      this.startupFailures++;
      if (this.startupFailures >= 3) {
        for (const call of this.queue.splice(0)) {
          call.settle({ ok: false, error: "the JavaScript sandbox cannot start" });
        }
        slot.child = undefined;
        setTimeout(() => !this.closed && !slot.child && this.spawn(slot), 1_000).unref();
        return;
      }
    }
    this.replace(slot, "the JavaScript sandbox crashed (the transform probably exhausted memory)");
  }

  /**
   * Kills a slot's process and starts another. A call that was alone in flight fails with
   * `reason`; the calls of a batch go back to the front of the queue, each to run alone, so the
   * one that brought the process down fails by itself and the others get their results.
   */
  private replace(slot: Slot, reason: string): void {
    const job = slot.job;
    slot.job = undefined;
    slot.runs = undefined;
    if (job) {
      clearTimeout(job.timer);
      settleLostBatch(this.queue, job.calls, reason);
    }
    const old = slot.child;
    slot.child = undefined;
    slot.ready = false;
    if (old && old.exitCode === null && old.signalCode === null) old.kill("SIGKILL");
    if (!this.closed) this.spawn(slot);
    this.dispatch();
  }

  private homeState(home: number): ProcessState {
    return stateOf(this.slots[home]);
  }

  private dispatch(): void {
    if (this.closed || this.queue.length === 0) return;
    let free = this.slots.filter(isFree).length;
    // Every process busy (the usual case under load): the next answer dispatches again.
    if (free === 0) return;
    const nowMs = performance.now();
    for (const [index, slot] of this.slots.entries()) {
      if (this.queue.length === 0) return;
      if (!isFree(slot)) continue;
      const own = this.queue[0]?.solo ? 0 : waitingFor(this.queue, index);
      // Under load, a process's next batch waits to gather its calls (gather.ts).
      const wait =
        own > 0
          ? gatherWaitMs({
              nowMs,
              runs: slot.runs,
              gatherMs: this.options.gatherMs,
              full: own >= this.options.maxBatch,
            })
          : 0;
      if (wait > 0) {
        free--;
        this.wake.wakeIn(wait, nowMs);
        continue;
      }
      this.startBatch(slot, index, free--, nowMs);
    }
  }

  /** Gives the free `slot` a batch from the queue, or arranges to look again. */
  private startBatch(slot: Slot, index: number, free: number, nowMs: number): void {
    const calls = takeBatch(this.queue, {
      free,
      maxBatch: this.options.maxBatch,
      process: index,
      nowMs,
      homeState: (home) => this.homeState(home),
    });
    if (calls.length === 0) {
      // What waits belongs to a busy process: give it a moment before another takes it.
      const head = this.queue[0];
      const home = head ? this.homeState(head.home) : undefined;
      if (home?.state === "busy") this.wake.wakeIn(home.sinceMs + STEAL_AFTER_MS - nowMs, nowMs);
      return;
    }
    slot.runs = { lastStartAtMs: nowMs, inFlight: true, loaded: calls.length > 1 };
    const id = this.nextId++;
    const { cpuLimitMs, watchdogGraceMs } = this.options;
    // The isolate enforces each call's time limit itself; this only fires when the process is
    // stuck in native code (a huge allocation) or gone. A batch runs its calls one after
    // another, each within its limit; the grace covers the rest of the work once per batch.
    const timer = setTimeout(
      () => {
        if (slot.job?.id === id) {
          this.replace(slot, `JavaScript transform exceeded the ${cpuLimitMs} ms time limit`);
        }
      },
      cpuLimitMs * calls.length + watchdogGraceMs,
    );
    slot.job = { id, calls, timer, startedAtMs: nowMs };
    slot.child?.send(batchMessage(id, calls));
  }
}
