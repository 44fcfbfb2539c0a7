import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, Worker } from "node:worker_threads";
import type { JqJob } from "./jq-messages.js";

/** A compiled WebAssembly module, opaque here: it is only handed to the workers. */
export type WasmModule = object;

/** The part of the WebAssembly API used here (the ES and Node type libraries do not declare it). */
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } }
).WebAssembly;

const WORKER_URL = new URL("./jq-worker.mjs", import.meta.url);
/** Heap of a jq worker's JavaScript side (jq's own memory is WebAssembly memory). */
const WORKER_HEAP_MB = 128;

/** Compiles jq's WebAssembly once; every worker instantiates the same module. */
export async function compileJqModule(): Promise<WasmModule> {
  const bytes = await readFile(createRequire(import.meta.url).resolve("jq-wasm/jq.wasm"));
  return wasm.compile(bytes);
}

export interface JqWorkerHandlers {
  onMessage(raw: unknown): void;
  /** The thread failed or stopped on its own; `reason` explains it to the event in flight. */
  onCrash(reason: string): void;
}

export interface JqWorkerThread {
  worker: Worker;
  /** The worker's replies; readable synchronously with `receiveMessageOnPort`. */
  replies: MessagePort;
  /** Sends a batch, waking the thread if it waits for one inside jq's running `main`. */
  send(job: JqJob): void;
}

/**
 * Starts a jq worker thread (unref'd: an idle pool never keeps the process alive). Replies come
 * on their own port so a pool whose time limit fires can first collect a reply that arrived but
 * was not dispatched yet because the event loop was busy.
 */
export function startJqWorker(
  module: WasmModule,
  memoryLimitBytes: number,
  handlers: JqWorkerHandlers,
): JqWorkerThread {
  const { port1: replies, port2: replyPort } = new MessageChannel();
  const { port1: commands, port2: commandPort } = new MessageChannel();
  // The thread blocks (Atomics.wait) on this counter between batches, inside jq's `main`.
  const signal = new SharedArrayBuffer(4);
  const counter = new Int32Array(signal);
  const worker = new Worker(WORKER_URL, {
    workerData: { wasmModule: module, replyPort, commandPort, signal, memoryLimitBytes },
    transferList: [replyPort, commandPort],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  worker.unref();
  replies.unref();
  commands.unref();
  replies.on("message", (raw: unknown) => handlers.onMessage(raw));
  worker.on("error", (error: Error & { code?: string }) =>
    handlers.onCrash(
      error.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? "jq program ran out of memory"
        : "jq worker failed",
    ),
  );
  worker.on("exit", () => {
    replies.close();
    commands.close();
    handlers.onCrash("jq worker stopped unexpectedly");
  });
  return {
    worker,
    replies,
    send(job) {
      commands.postMessage(job);
      Atomics.add(counter, 0, 1);
      Atomics.notify(counter, 0);
    },
  };
}
