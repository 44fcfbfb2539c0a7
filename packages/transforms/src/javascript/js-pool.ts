import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { gatherWaitMs, type RecentRuns } from "../gather.js";
import { exceedsBytes, outputTooLargeMessage } from "../output.js";
import type { TransformOutcome } from "../types.js";
import {
  batchMessage,
  homeProcess,
  type ProcessState,
  type QueuedCall,
  STEAL_AFTER_MS,
  takeBatch,
  waitingFor,
} from "./js-batches.js";
import { type SandboxCallResult, SandboxMessage } from "./sandbox-messages.js";

export interface JsPoolOptions {
  processes: number;
  cpuLimitMs: number;
  memoryLimitMb: number;
  watchdogGraceMs: number;
  maxOutputBytes: number;
  /** Queued calls one sandbox process takes in one message. */
  maxBatch: number;
  /** Warm contexts (one per node and code) each sandbox process keeps. */
  warmContexts: number;
  /** A process under load starts a batch at most this often (gather.ts); 0: never waits. */
  gatherMs: number;
}

export interface JsPool {
  /**
   * Runs user code on `inputJson` (`{"payload": ..., "context": ...}`). `scope` names the node the
   * call belongs to; only calls of the same scope and code share a warm context.
   */
  run(scope: string, code: string, inputJson: string): Promise<TransformOutcome>;
  close(): Promise<void>;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  job: { id: number; calls: QueuedCall[]; timer: NodeJS.Timeout; startedAtMs: number } | undefined;
  /** Its recent batches: whether its next one waits to gather calls. */
  runs: RecentRuns | undefined;
}

const HOST_PATH = fileURLToPath(new URL("./sandbox-host.mjs", import.meta.url));
/** isolated-vm needs --no-node-snapshot (Node 20 and later); the host heap only holds messages. */
const HOST_EXEC_ARGV = ["--no-node-snapshot", "--max-old-space-size=256"];

/**
 * JavaScript transforms in isolated-vm isolates hosted by sandbox processes. A free process takes
 * the calls waiting in the queue (up to `maxBatch`, shared among the free processes) in one
 * message, runs them one after another and answers in one message: at low load each call goes
 * alone, without waiting; a process under load starts a batch at most every `gatherMs`, so the
 * calls arriving meanwhile share a message (each message costs both processes far more than a
 * call in it). isolated-vm
 * contains time and memory limits, but a single huge allocation can still abort V8 itself; in a
 * separate process that costs only the calls in flight, and those of a batch run again, each
 * alone, so only the culprit fails. A process that crashes or stops answering is replaced.
 */
export function createJsPool(options: JsPoolOptions): JsPool {
  const slots: Slot[] = Array.from({ length: options.processes }, () => ({
    child: undefined,
    ready: false,
    job: undefined,
    runs: undefined,
  }));
  const queue: QueuedCall[] = [];
  let nextId = 1;
  let started = false;
  let closed = false;
  let startupFailures = 0;
  const hostConfig = JSON.stringify({
    cpuLimitMs: options.cpuLimitMs,
    memoryLimitMb: options.memoryLimitMb,
    maxOutputBytes: options.maxOutputBytes,
    warmContexts: options.warmContexts,
  });

  function spawn(slot: Slot): void {
    const child = fork(HOST_PATH, [hostConfig], {
      execArgv: HOST_EXEC_ARGV,
      env: {},
      // JSON: cheaper than "advanced" for these messages (strings, numbers, flags), both ways.
      serialization: "json",
      stdio: ["ignore", "ignore", "ignore", "ipc"],
    });
    slot.child = child;
    slot.ready = false;
    child.unref();
    child.channel?.unref();
    child.on("message", (raw: unknown) => onMessage(slot, child, raw));
    child.on("error", () => onExit(slot, child));
    child.on("exit", () => onExit(slot, child));
  }

  function onMessage(slot: Slot, child: ChildProcess, raw: unknown): void {
    if (slot.child !== child) return;
    const parsed = SandboxMessage.safeParse(raw);
    const job = slot.job;
    if (
      !parsed.success ||
      (parsed.data.type === "results" &&
        job?.id === parsed.data.id &&
        parsed.data.results.length !== job.calls.length)
    ) {
      replace(slot, "the JavaScript sandbox sent an unreadable message");
      return;
    }
    const message = parsed.data;
    if (message.type === "ready") {
      slot.ready = true;
      startupFailures = 0;
      dispatch();
      return;
    }
    if (!job || job.id !== message.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if (slot.runs) {
      slot.runs.inFlight = false;
      if (waitingFor(queue, slots.indexOf(slot)) > 0) slot.runs.loaded = true;
    }
    const retries: QueuedCall[] = [];
    message.results.forEach((result, index) => {
      const call = job.calls[index] as QueuedCall;
      if (!result.ok && result.timedOut && !call.overran) {
        // One more run before failing, so a moment of CPU starvation on a busy machine does not
        // fail a legitimate event; a looping transform costs two time limits. It runs alone, so
        // the calls waiting behind it do not share its batch (and its time).
        call.overran = true;
        call.solo = true;
        retries.push(call);
      } else {
        call.settle(outcomeOf(result));
      }
    });
    queue.unshift(...retries);
    dispatch();
  }

  function outcomeOf(result: SandboxCallResult): TransformOutcome {
    if (!result.ok) return { ok: false, error: result.error };
    if (exceedsBytes(result.json, options.maxOutputBytes)) {
      return { ok: false, error: outputTooLargeMessage(options.maxOutputBytes) };
    }
    try {
      // The text is only parsed: user code can replace JSON.stringify inside its context, so
      // the sandbox's text is never passed on as is (the host serializes the value itself).
      return { ok: true, output: JSON.parse(result.json) };
    } catch {
      return { ok: false, error: "the transform result is not JSON" };
    }
  }

  function onExit(slot: Slot, child: ChildProcess): void {
    if (slot.child !== child) return;
    if (!slot.ready && !slot.job) {
      startupFailures++;
      if (startupFailures >= 3) {
        for (const call of queue.splice(0)) {
          call.settle({ ok: false, error: "the JavaScript sandbox cannot start" });
        }
        slot.child = undefined;
        setTimeout(() => !closed && !slot.child && spawn(slot), 1_000).unref();
        return;
      }
    }
    replace(slot, "the JavaScript sandbox crashed (the transform probably exhausted memory)");
  }

  /**
   * Kills a slot's process and starts another. A call that was alone in flight fails with
   * `reason`; the calls of a batch go back to the front of the queue, each to run alone, so the
   * one that brought the process down fails by itself and the others get their results.
   */
  function replace(slot: Slot, reason: string): void {
    const job = slot.job;
    slot.job = undefined;
    slot.runs = undefined;
    if (job) {
      clearTimeout(job.timer);
      if (job.calls.length === 1) {
        job.calls[0]?.settle({ ok: false, error: reason });
      } else {
        for (const call of job.calls) call.solo = true;
        queue.unshift(...job.calls);
      }
    }
    const old = slot.child;
    slot.child = undefined;
    slot.ready = false;
    if (old && old.exitCode === null && old.signalCode === null) old.kill("SIGKILL");
    if (!closed) spawn(slot);
    dispatch();
  }

  /** Re-dispatches when a gathering process's window ends or a busy home's calls may be taken. */
  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeAtMs = Number.POSITIVE_INFINITY;

  function wakeIn(ms: number, nowMs: number): void {
    const at = nowMs + Math.max(1, Math.ceil(ms));
    if (wakeTimer && at >= wakeAtMs) return;
    clearTimeout(wakeTimer);
    wakeAtMs = at;
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      wakeAtMs = Number.POSITIVE_INFINITY;
      dispatch();
    }, at - nowMs);
  }

  function dispatch(): void {
    if (closed || queue.length === 0) return;
    let free = 0;
    for (const slot of slots) if (slot.child && slot.ready && !slot.job) free++;
    // Every process busy (the usual case under load): the next answer dispatches again.
    if (free === 0) return;
    const nowMs = performance.now();
    const homeState = (home: number): ProcessState => {
      const slot = slots[home];
      if (slot?.child === undefined || !slot.ready) return { state: "down" };
      return slot.job ? { state: "busy", sinceMs: slot.job.startedAtMs } : { state: "free" };
    };
    for (const [index, slot] of slots.entries()) {
      if (queue.length === 0) return;
      if (!slot.child || !slot.ready || slot.job) continue;
      const own = queue[0]?.solo ? 0 : waitingFor(queue, index);
      if (own > 0) {
        // Under load, a process's next batch waits to gather its calls (gather.ts).
        const wait = gatherWaitMs({
          nowMs,
          runs: slot.runs,
          gatherMs: options.gatherMs,
          full: own >= options.maxBatch,
        });
        if (wait > 0) {
          free--;
          wakeIn(wait, nowMs);
          continue;
        }
      }
      const calls = takeBatch(queue, {
        free: free--,
        maxBatch: options.maxBatch,
        process: index,
        nowMs,
        homeState,
      });
      if (calls.length === 0) {
        // What waits belongs to a busy process: give it a moment before another takes it.
        const head = queue[0];
        const home = head ? homeState(head.home) : undefined;
        if (home?.state === "busy") wakeIn(home.sinceMs + STEAL_AFTER_MS - nowMs, nowMs);
        continue;
      }
      slot.runs = { lastStartAtMs: nowMs, inFlight: true, loaded: calls.length > 1 };
      const id = nextId++;
      // The isolate enforces each call's time limit itself; this only fires when the process is
      // stuck in native code (a huge allocation) or gone. A batch runs its calls one after
      // another, each within its limit; the grace covers the rest of the work once per batch.
      const timer = setTimeout(
        () => {
          if (slot.job?.id === id) {
            replace(slot, `JavaScript transform exceeded the ${options.cpuLimitMs} ms time limit`);
          }
        },
        options.cpuLimitMs * calls.length + options.watchdogGraceMs,
      );
      slot.job = { id, calls, timer, startedAtMs: nowMs };
      slot.child.send(batchMessage(id, calls));
    }
  }

  return {
    run(scope, code, inputJson) {
      if (closed) return Promise.reject(new Error("the transform runner is closed"));
      if (!started) {
        started = true;
        for (const slot of slots) spawn(slot);
      }
      return new Promise<TransformOutcome>((settle) => {
        queue.push({
          scope,
          code,
          inputJson,
          settle,
          home: homeProcess(scope, slots.length),
          queuedAtMs: performance.now(),
        });
        dispatch();
      });
    },
    async close() {
      closed = true;
      clearTimeout(wakeTimer);
      const exits: Promise<unknown>[] = [];
      for (const slot of slots) {
        if (slot.job) {
          clearTimeout(slot.job.timer);
          for (const call of slot.job.calls) {
            call.settle({ ok: false, error: "the transform runner closed" });
          }
          slot.job = undefined;
        }
        const child = slot.child;
        slot.child = undefined;
        if (child && child.exitCode === null && child.signalCode === null) {
          exits.push(new Promise((resolve) => child.once("exit", resolve)));
          // The process is unref'd; held again until it exits, or a process with nothing else
          // to do would end before `close` resolves.
          child.ref();
          child.kill("SIGKILL");
        }
      }
      for (const call of queue.splice(0))
        call.settle({ ok: false, error: "the transform runner closed" });
      await Promise.all(exits);
    },
  };
}
