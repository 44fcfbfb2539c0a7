// @ts-check
// Worker thread running jq (WebAssembly). Plain JavaScript so Node runs it from the sources and
// from the build alike; the pool in jq-pool.ts owns the protocol (see jq-messages.ts).
import { parentPort, workerData } from "node:worker_threads";
import { loadJq } from "jq-wasm";

if (!parentPort) throw new Error("jq-worker.mjs runs as a worker thread");
const jobs = parentPort;
/** @type {import("node:worker_threads").MessagePort} replies go here, jobs come on parentPort */
const port = workerData.replyPort;

/**
 * The part of the WebAssembly API used here (@types/node 20 does not declare it).
 * @typedef {{ buffer: ArrayBuffer }} WasmMemory
 * @typedef {{ exports: Record<string, unknown> }} WasmInstance
 * @type {{ Instance: new (module: unknown, imports: unknown) => WasmInstance, Memory: Function }}
 */
const wasm = Reflect.get(globalThis, "WebAssembly");
/** @type {unknown} compiled once by the pool */
const wasmModule = workerData.wasmModule;
/** @type {WasmMemory | undefined} */
let memory;

// The Emscripten runtime reports aborts on the console; the pool reports them instead.
console.error = () => {};
console.warn = () => {};
console.log = () => {};

const jq = await loadJq({
  instantiateWasm(imports, onSuccess) {
    const instance = new wasm.Instance(wasmModule, imports);
    memory = /** @type {WasmMemory | undefined} */ (
      Object.values(instance.exports).find((value) => value instanceof wasm.Memory)
    );
    onSuccess(/** @type {never} */ (instance), /** @type {never} */ (wasmModule));
  },
});

jobs.on(
  "message",
  (/** @type {{id: number, program: string, stdin: string, maxStdoutChars: number}} */ job) => {
    try {
      const result = jq.raw(job.stdin, job.program, ["-c"]);
      const memoryBytes = memory?.buffer.byteLength ?? 0;
      if (result.stdout.length > job.maxStdoutChars) {
        port.postMessage({ type: "too_large", id: job.id, memoryBytes });
        return;
      }
      port.postMessage({
        type: "done",
        id: job.id,
        stdout: result.stdout,
        stderr: result.stderr.slice(0, 4096),
        exitCode: result.exitCode,
        memoryBytes,
      });
    } catch (error) {
      // An Emscripten abort (out of memory) leaves the runtime unusable: the pool replaces us.
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ type: "fatal", id: job.id, message: message.slice(0, 500) });
    }
  },
);

// The first runs of a fresh runtime are far slower than the rest (compilation, cold caches):
// warm up before taking jobs, so a new worker does not spend a real event's time limit on it.
for (let i = 0; i < 5; i++) jq.raw("[0,{}]", "{a: .[1]}", ["-c"]);
port.postMessage({ type: "ready" });
