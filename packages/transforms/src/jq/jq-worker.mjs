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
import {
  abandonBatch,
  beginBatch,
  endBatch,
  hookedInstantiation,
  mainEnded,
} from "./jq-worker-io.mjs";

if (!parentPort) throw new Error("jq-worker.mjs runs as a worker thread");
/** @type {import("node:worker_threads").MessagePort} replies go here */
const port = workerData.replyPort;
/** @type {import("node:worker_threads").MessagePort} commands come here */
const commands = workerData.commandPort;
/** jq's memory may not grow past this: a refused growth is jq's out-of-memory abort. */
const memoryLimitBytes = Number(workerData.memoryLimitBytes);
/** Bumped by the pool after each command, so a thread blocked in a read wakes up. */
const signal = new Int32Array(workerData.signal);

/** @type {unknown} compiled once by the pool */
const wasmModule = workerData.wasmModule;

/**
 * @typedef {import("./jq-worker-io.mjs").Job} Job
 * @typedef {Job} Command
 */

/** The key whose `main` is running. */
let runningKey = "";
/** jq `main`s started for batches since the thread was ready (reported with each answer). */
let mainStarts = 0;
/** While warming up, a batch's `main` ends with its input instead of waiting for more. */
let warmingUp = true;
/** A job that ended the running `main` (another key's): it starts the next one. */
/** @type {Job | undefined} */
let nextJob;

// The Emscripten runtime reports aborts on the console; the pool reports them instead.
console.error = () => {};
console.warn = () => {};
console.log = () => {};

/** Answers the batch in flight; `exitCode` is 0 while `main` goes on. @param {number} exitCode */
function answer(exitCode) {
  const reply = endBatch(exitCode, mainStarts);
  if (reply) port.postMessage(reply);
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
  instantiateWasm: hookedInstantiation(wasmModule, memoryLimitBytes, continueWithNextBatch),
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
      const current = abandonBatch();
      if (current)
        port.postMessage({ type: "fatal", id: current.id, message: message.slice(0, 500) });
      return;
    } finally {
      runningKey = "";
      mainEnded();
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
