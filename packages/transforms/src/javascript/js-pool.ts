import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exceedsBytes, outputTooLargeMessage } from "../output.js";
import type { TransformOutcome } from "../types.js";
import { type SandboxJob, SandboxMessage } from "./sandbox-messages.js";

export interface JsPoolOptions {
  processes: number;
  cpuLimitMs: number;
  memoryLimitMb: number;
  watchdogGraceMs: number;
  maxOutputBytes: number;
}

export interface JsPool {
  /** Runs user code on `inputJson` (`{"payload": ..., "context": ...}`). */
  run(code: string, inputJson: string): Promise<TransformOutcome>;
  close(): Promise<void>;
}

interface QueuedCall {
  code: string;
  inputJson: string;
  settle(outcome: TransformOutcome): void;
  /** Set once the call overran its time limit (it gets one more run). */
  overran?: boolean;
}

interface Slot {
  child: ChildProcess | undefined;
  ready: boolean;
  job: { id: number; call: QueuedCall; timer: NodeJS.Timeout } | undefined;
}

const HOST_PATH = fileURLToPath(new URL("./sandbox-host.mjs", import.meta.url));
/** isolated-vm needs --no-node-snapshot on Node 20; the host's own heap only holds messages. */
const HOST_EXEC_ARGV = ["--no-node-snapshot", "--max-old-space-size=256"];

/**
 * JavaScript transforms in isolated-vm isolates hosted by sandbox processes, one call at a time
 * per process. isolated-vm contains time and memory limits, but a single huge allocation can
 * still abort V8 itself; in a separate process that costs only the call in flight. A process that
 * crashes or stops answering is replaced.
 */
export function createJsPool(options: JsPoolOptions): JsPool {
  const slots: Slot[] = Array.from({ length: options.processes }, () => ({
    child: undefined,
    ready: false,
    job: undefined,
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
  });

  function spawn(slot: Slot): void {
    const child = fork(HOST_PATH, [hostConfig], {
      execArgv: HOST_EXEC_ARGV,
      env: {},
      serialization: "advanced",
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
    if (!parsed.success) {
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
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    if (message.ok) {
      job.call.settle(readOutput(message.json));
    } else if (message.timedOut && !job.call.overran) {
      // One more run before failing, so a moment of CPU starvation on a busy machine does not
      // fail a legitimate event; a looping transform costs two time limits.
      job.call.overran = true;
      queue.unshift(job.call);
    } else {
      job.call.settle({ ok: false, error: message.error });
    }
    dispatch();
  }

  function readOutput(json: string): TransformOutcome {
    if (exceedsBytes(json, options.maxOutputBytes)) {
      return { ok: false, error: outputTooLargeMessage(options.maxOutputBytes) };
    }
    try {
      return { ok: true, output: JSON.parse(json) };
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

  /** Kills a slot's process and starts another; its call in flight fails with `reason`. */
  function replace(slot: Slot, reason: string): void {
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.call.settle({ ok: false, error: reason });
    }
    const old = slot.child;
    slot.child = undefined;
    slot.ready = false;
    if (old && old.exitCode === null && old.signalCode === null) old.kill("SIGKILL");
    if (!closed) spawn(slot);
    dispatch();
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (!slot.child || !slot.ready || slot.job) continue;
      const call = queue.shift() as QueuedCall;
      const id = nextId++;
      // The isolate enforces the time limit itself; this only fires when the process is stuck
      // in native code (a huge allocation) or gone.
      const timer = setTimeout(() => {
        if (slot.job?.id === id) {
          replace(slot, `JavaScript transform exceeded the ${options.cpuLimitMs} ms time limit`);
        }
      }, options.cpuLimitMs + options.watchdogGraceMs);
      slot.job = { id, call, timer };
      const job: SandboxJob = { id, code: call.code, input: call.inputJson };
      slot.child.send(job);
    }
  }

  return {
    run(code, inputJson) {
      if (closed) return Promise.reject(new Error("the transform runner is closed"));
      if (!started) {
        started = true;
        for (const slot of slots) spawn(slot);
      }
      return new Promise<TransformOutcome>((settle) => {
        queue.push({ code, inputJson, settle });
        dispatch();
      });
    },
    async close() {
      closed = true;
      const exits: Promise<unknown>[] = [];
      for (const slot of slots) {
        if (slot.job) {
          clearTimeout(slot.job.timer);
          slot.job.call.settle({ ok: false, error: "the transform runner closed" });
          slot.job = undefined;
        }
        const child = slot.child;
        slot.child = undefined;
        if (child && child.exitCode === null && child.signalCode === null) {
          exits.push(new Promise((resolve) => child.once("exit", resolve)));
          child.kill("SIGKILL");
        }
      }
      for (const call of queue.splice(0))
        call.settle({ ok: false, error: "the transform runner closed" });
      await Promise.all(exits);
    },
  };
}
