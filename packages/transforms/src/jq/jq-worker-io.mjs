// @ts-check
// jq's input and output inside a jq worker thread (jq-worker.mjs): jq's WebAssembly system calls
// are hooked so that its reads of its input are served from the batch in flight (and, once that is
// used up, from the batches that follow), its writes are kept for the batch's answer, and its
// memory may not grow past the pool's limit.

/**
 * The part of the WebAssembly API used here (the ES and Node type libraries do not declare it).
 * @typedef {{ buffer: ArrayBuffer }} WasmMemory
 * @typedef {{ exports: Record<string, unknown> }} WasmInstance
 * @typedef {(...args: number[]) => number} WasmImport
 * @type {{ Instance: new (module: unknown, imports: unknown) => WasmInstance, Memory: Function }}
 */
const wasm = Reflect.get(globalThis, "WebAssembly");
/** @type {WasmMemory | undefined} */
let memory;

/**
 * @typedef {{ type: "job", id: number, key: string, program: string, stdin: string,
 *   maxStdoutChars: number }} Job
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
/** @type {Buffer[]} */
let stdout = [];
let stdoutChars = 0;
let stdoutTooLarge = false;
/** @type {Buffer[]} */
let stderr = [];
let stderrBytes = 0;

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

/**
 * jq's reads of its input: the batch's bytes, then (blocking) the next batch, or the end.
 * `onInputEnd` is called once the batch's bytes are used up: true when a next batch began.
 */
/** @param {WasmImport} original @param {() => boolean} onInputEnd @returns {WasmImport} */
function readHook(original, onInputEnd) {
  return (fd, iov, iovcnt, pnum) => {
    if (fd !== inputFd) return original(fd, iov, iovcnt, pnum);
    const more = inputOffset < input.length || onInputEnd();
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
export function beginBatch(next) {
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

/**
 * Ends the batch in flight: its answer for the pool, or undefined when there is none to send (no
 * batch, or a warm-up one). `exitCode` is 0 while `main` goes on.
 * @param {number} exitCode @param {number} mainStarts
 */
export function endBatch(exitCode, mainStarts) {
  const current = job;
  job = undefined;
  if (!current || current.id < 0) return undefined;
  const memoryBytes = memory?.buffer.byteLength ?? 0;
  if (stdoutTooLarge) return { type: "too_large", id: current.id, memoryBytes };
  return {
    type: "done",
    id: current.id,
    stdout: Buffer.concat(stdout).toString("utf8"),
    stderr: Buffer.concat(stderr).toString("utf8").slice(0, 4096),
    exitCode,
    memoryBytes,
    mainStarts,
  };
}

/** Drops the batch in flight unanswered (jq aborted) and returns it. @returns {Job | undefined} */
export function abandonBatch() {
  const current = job;
  job = undefined;
  return current;
}

/** jq's `main` ended: the descriptor it read its input from is gone. */
export function mainEnded() {
  inputFd = -1;
}

/**
 * loadJq's `instantiateWasm`: instantiates jq's module (compiled once by the pool) with its input,
 * output and memory growth hooked. `onInputEnd` serves a read past the batch in flight.
 * @param {unknown} wasmModule @param {number} memoryLimitBytes @param {() => boolean} onInputEnd
 * @returns {NonNullable<import("jq-wasm").JqLoadOptions["instantiateWasm"]>}
 */
export function hookedInstantiation(wasmModule, memoryLimitBytes, onInputEnd) {
  return (imports, onSuccess) => {
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
        } else if (original.name === "_fd_read") table[name] = readHook(original, onInputEnd);
        else if (original.name === "_fd_write") table[name] = writeHook(original);
      }
    }
    const instance = new wasm.Instance(wasmModule, imports);
    memory = /** @type {WasmMemory | undefined} */ (
      Object.values(instance.exports).find((value) => value instanceof wasm.Memory)
    );
    onSuccess(/** @type {never} */ (instance), /** @type {never} */ (wasmModule));
  };
}
