// @ts-check
// Worker thread running jq (WebAssembly). Plain JavaScript so Node runs it from the sources and
// from the build alike; the pool in jq-pool.ts owns the protocol (see jq-messages.ts).
//
// jq compiles its builtins and the program every time its `main` starts (about 1.5 ms), while an
// input costs about 0.07 ms. So `main` keeps running between batches of the same key (webhook and
// program): jq reads its input from a file descriptor whose reads this thread serves itself. When
// a batch's bytes are used up, jq has written every output of that batch (it reads line by line
// and flushes each output with --unbuffered), so the batch is answered, and the thread blocks in
// that read until the pool's next command: a batch of the same key continues the same `main`;
// anything else ends it (end of input) and, for another key's batch, starts a new one.
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { loadJq } from "jq-wasm";

if (!parentPort) throw new Error("jq-worker.mjs runs as a worker thread");
/** @type {import("node:worker_threads").MessagePort} replies go here */
const port = workerData.replyPort;
/** @type {import("node:worker_threads").MessagePort} commands come here */
const commands = workerData.commandPort;
/** jq's memory may not grow past this: a refused growth is jq's out-of-memory abort. */
const memoryLimitBytes = Number(workerData.memoryLimitBytes);
/** Bumped by the pool after each command, so a thread blocked in a read wakes up. */
const signal = new Int32Array(workerData.signal);

/**
 * The part of the WebAssembly API used here (the ES and Node type libraries do not declare it).
 * @typedef {{ buffer: ArrayBuffer }} WasmMemory
 * @typedef {{ exports: Record<string, unknown> }} WasmInstance
 * @typedef {(...args: number[]) => number} WasmImport
 * @type {{ Instance: new (module: unknown, imports: unknown) => WasmInstance, Memory: Function }}
 */
const wasm = Reflect.get(globalThis, "WebAssembly");
/** @type {unknown} compiled once by the pool */
const wasmModule = workerData.wasmModule;
/** @type {WasmMemory | undefined} */
let memory;

/**
 * @typedef {{ type: "job", id: number, key: string, program: string, stdin: string,
 *   maxStdoutChars: number }} Job
 * @typedef {Job} Command
 */

const STDIN_PATH = "/dev/stdin";
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The descriptor jq opened for its input (the reads this thread serves), or -1. */
let inputFd = -1;
/** Bytes of the current batch and how far jq has read them. */
let input = new Uint8Array(0);
let inputOffset = 0;
/** The batch being evaluated, until it is answered. */
/** @type {Job | undefined} */
let job;
/** The key whose `main` is running. */
let runningKey = "";
/** jq `main`s started for batches since the thread was ready (reported with each answer). */
let mainStarts = 0;
/** While warming up, a batch's `main` ends with its input instead of waiting for more. */
let warmingUp = true;
/** A job that ended the running `main` (another key's): it starts the next one. */
/** @type {Job | undefined} */
let nextJob;
/** @type {Buffer[]} */
let stdout = [];
let stdoutChars = 0;
let stdoutTooLarge = false;
/** @type {Buffer[]} */
let stderr = [];
let stderrBytes = 0;

// The Emscripten runtime reports aborts on the console; the pool reports them instead.
console.error = () => {};
console.warn = () => {};
console.log = () => {};

/** @param {number} pointer @returns {string} */
function readCString(pointer) {
  const { heap } = memoryViews();
  let end = pointer;
  while (heap[end] !== 0 && end < heap.length) end++;
  return decoder.decode(heap.subarray(pointer, end));
}

/**
 * Views of jq's memory as it is now (it may have grown since the last call, which replaces the
 * buffer): bytes, and 32-bit little-endian words for the I/O vectors and counts.
 */
function memoryViews() {
  const buffer = /** @type {WasmMemory} */ (memory).buffer;
  return { heap: new Uint8Array(buffer), view: new DataView(buffer) };
}

/** jq's reads of its input: the batch's bytes, then (blocking) the next batch, or the end. */
/** @param {WasmImport} original @returns {WasmImport} */
function readHook(original) {
  return (fd, iov, iovcnt, pnum) => {
    if (fd !== inputFd) return original(fd, iov, iovcnt, pnum);
    const more = inputOffset < input.length || continueWithNextBatch();
    const { heap, view } = memoryViews();
    let read = 0;
    for (let index = 0; more && index < iovcnt; index++) {
      const pointer = view.getUint32(iov + 8 * index, true);
      const length = view.getUint32(iov + 8 * index + 4, true);
      const take = Math.min(length, input.length - inputOffset);
      heap.set(input.subarray(inputOffset, inputOffset + take), pointer);
      inputOffset += take;
      read += take;
      if (take < length) break;
    }
    view.setUint32(pnum, read, true);
    return 0;
  };
}

/** jq's writes to stdout and stderr, kept for the batch's answer. */
/** @param {WasmImport} original @returns {WasmImport} */
function writeHook(original) {
  return (fd, iov, iovcnt, pnum) => {
    if (fd !== 1 && fd !== 2) return original(fd, iov, iovcnt, pnum);
    const { heap, view } = memoryViews();
    let written = 0;
    for (let index = 0; index < iovcnt; index++) {
      const pointer = view.getUint32(iov + 8 * index, true);
      const length = view.getUint32(iov + 8 * index + 4, true);
      written += length;
      if (fd === 1) {
        stdoutChars += length;
        if (job && stdoutChars > job.maxStdoutChars) stdoutTooLarge = true;
        if (!stdoutTooLarge) stdout.push(Buffer.from(heap.subarray(pointer, pointer + length)));
      } else if (stderrBytes < 4096) {
        stderrBytes += length;
        stderr.push(Buffer.from(heap.subarray(pointer, pointer + length)));
      }
    }
    view.setUint32(pnum, written, true);
    return 0;
  };
}

/** @param {Job} next */
function beginBatch(next) {
  job = next;
  // A batch ends with a line break, so jq has read (and answered) its last input before it asks
  // for more.
  input = encoder.encode(next.stdin.endsWith("\n") ? next.stdin : `${next.stdin}\n`);
  inputOffset = 0;
  stdout = [];
  stdoutChars = 0;
  stdoutTooLarge = false;
  stderr = [];
  stderrBytes = 0;
}

/** Answers the batch in flight; `exitCode` is 0 while `main` goes on. @param {number} exitCode */
function answer(exitCode) {
  const current = job;
  job = undefined;
  if (!current || current.id < 0) return;
  const memoryBytes = memory?.buffer.byteLength ?? 0;
  if (stdoutTooLarge) {
    port.postMessage({ type: "too_large", id: current.id, memoryBytes });
    return;
  }
  port.postMessage({
    type: "done",
    id: current.id,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8").slice(0, 4096),
    exitCode,
    memoryBytes,
    mainStarts,
  });
}

/** The next command, waiting for it (the thread sleeps until the pool signals). @returns {Command} */
function waitForCommand() {
  for (;;) {
    const seen = Atomics.load(signal, 0);
    const received = receiveMessageOnPort(commands);
    if (received) return received.message;
    Atomics.wait(signal, 0, seen);
  }
}

/**
 * Called when jq has read the whole batch: answers it, then waits for the next command. True when
 * a batch of the same key continues this `main`; false ends it (a command for another key is kept
 * for the next `main`).
 */
function continueWithNextBatch() {
  answer(0);
  if (warmingUp) return false;
  const command = waitForCommand();
  if (command.type === "job" && command.key === runningKey) {
    beginBatch(command);
    return true;
  }
  if (command.type === "job") nextJob = command;
  return false;
}

const jq = await loadJq({
  instantiateWasm(imports, onSuccess) {
    for (const table of Object.values(imports)) {
      for (const [name, value] of Object.entries(/** @type {Record<string, unknown>} */ (table))) {
        if (typeof value !== "function") continue;
        const original = /** @type {WasmImport} */ (value);
        if (original.name === "___syscall_openat") {
          table[name] = (/** @type {number[]} */ ...args) => {
            const fd = original(...args);
            if (fd >= 0 && readCString(/** @type {number} */ (args[1])) === STDIN_PATH)
              inputFd = fd;
            return fd;
          };
        } else if (original.name === "_fd_close") {
          table[name] = (/** @type {number} */ fd) => {
            if (fd === inputFd) inputFd = -1;
            return original(fd);
          };
        } else if (original.name === "_emscripten_resize_heap") {
          table[name] = (/** @type {number} */ size) =>
            size >>> 0 > memoryLimitBytes ? 0 : original(size);
        } else if (original.name === "_fd_read") table[name] = readHook(original);
        else if (original.name === "_fd_write") table[name] = writeHook(original);
      }
    }
    const instance = new wasm.Instance(wasmModule, imports);
    memory = /** @type {WasmMemory | undefined} */ (
      Object.values(instance.exports).find((value) => value instanceof wasm.Memory)
    );
    onSuccess(/** @type {never} */ (instance), /** @type {never} */ (wasmModule));
  },
});

/** Runs `main` for the job's key, for as long as batches of that key follow. @param {Job} first */
function runMain(first) {
  /** @type {Job | undefined} */
  let start = first;
  while (start) {
    runningKey = start.key;
    if (!warmingUp) mainStarts++;
    beginBatch(start);
    nextJob = undefined;
    try {
      const result = jq.raw("", start.program, ["-c", "--unbuffered"]);
      // `main` ended: on its own (a program that does not compile) with the batch unanswered, or
      // after its input ended.
      answer(result.exitCode);
    } catch (error) {
      // An Emscripten abort (out of memory) leaves the runtime unusable: the pool replaces us.
      const message = error instanceof Error ? error.message : String(error);
      if (job) port.postMessage({ type: "fatal", id: job.id, message: message.slice(0, 500) });
      job = undefined;
      return;
    } finally {
      runningKey = "";
      inputFd = -1;
    }
    start = nextJob;
  }
}

/** Commands that arrive while no `main` runs. */
function drainCommands() {
  for (let received = receiveMessageOnPort(commands); received; ) {
    const command = /** @type {Command} */ (received.message);
    if (command.type === "job") runMain(command);
    received = receiveMessageOnPort(commands);
  }
}
commands.on("message", (/** @type {Command} */ command) => {
  if (command.type === "job") runMain(command);
  drainCommands();
});

// The first runs of a fresh runtime are far slower than the rest (compilation, cold caches):
// warm up before taking jobs, so a new worker does not spend a real event's time limit on it.
for (let i = 0; i < 5; i++) {
  runMain({
    type: "job",
    id: -1,
    key: "",
    program: "{a: .[1]}",
    stdin: "[0,{}]",
    maxStdoutChars: 1e6,
  });
}
warmingUp = false;
port.postMessage({ type: "ready" });
