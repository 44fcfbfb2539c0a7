import { z } from "zod";

const positiveInt = (max: number) => z.number().int().positive().max(max);

/**
 * Options of `createTransformRunner`. Every field has a default; see the package README for how
 * each limit is enforced.
 */
export const TransformRunnerOptions = z.object({
  /** Execution time of one JavaScript step on its isolate thread (wall clock of that thread). */
  jsCpuLimitMs: positiveInt(60_000).default(50),
  /** Heap limit of each JavaScript isolate (isolated-vm accepts 8 MB and more). */
  jsMemoryLimitMb: z.number().int().min(8).max(4096).default(32),
  /** Sandbox processes running JavaScript transforms, one batch of calls at a time each. */
  jsProcesses: positiveInt(64).default(2),
  /** A sandbox process that has not answered this long after its time limit is killed. */
  jsWatchdogGraceMs: positiveInt(60_000).default(1_000),
  /** Queued JavaScript calls a free sandbox process takes in one message (and answers in one). */
  jsMaxBatch: positiveInt(1_000).default(32),
  /**
   * Hardened contexts each sandbox process keeps warm, one per node (and code): hardening a new
   * context costs about 1.5 ms, a warm call about 0.05 ms. Each adds about 0.25 MB to the
   * isolate's heap limit. 0: every call gets a new context.
   */
  jsWarmContexts: z.number().int().min(0).max(1_000).default(32),
  /**
   * While a sandbox process is under load (its last batch had company, or calls for it queued
   * while it ran), it starts a batch at most this often so calls share a message; a lone call
   * starts at once.
   */
  jsGatherMs: z.number().int().min(0).max(1_000).default(10),
  /**
   * jq programs in the inline evaluator's subset run on the calling thread (no thread hop, no
   * WebAssembly) whenever it can answer exactly; anything else runs in jq on the worker threads.
   */
  jqInline: z.boolean().default(true),
  /** Payloads above this many characters of JSON text always run in jq (off the event loop). */
  jqInlineMaxInputChars: positiveInt(16 * 1024 * 1024).default(64 * 1024),
  /**
   * Work units one inline run may spend (node evaluations, iterated elements, compared values,
   * values built), plus one per character of input; past it the call goes to jq, and so do that
   * program's later calls.
   */
  jqInlineBudget: positiveInt(10_000_000).default(20_000),
  /** Wall-clock limit of one jq run (a batch of events) on its worker thread. */
  jqTimeoutMs: positiveInt(60_000).default(100),
  /**
   * While a webhook's program is under load (calls queue while its run is in flight), its runs
   * start at most this often so calls share a run; a lone call starts at once.
   */
  jqGatherMs: z.number().int().min(0).max(1_000).default(10),
  /** Worker threads running jq. */
  jqWorkers: positiveInt(64).default(2),
  /** Events of one webhook running the same jq program are evaluated together, up to this many. */
  jqMaxBatch: positiveInt(1_000).default(64),
  /** ...and up to this much input JSON per batch (a single larger event still runs alone). */
  jqMaxBatchBytes: positiveInt(64 * 1024 * 1024).default(512 * 1024),
  /** A jq worker whose WebAssembly memory grew past this is replaced after its run. */
  jqRecycleMemoryMb: positiveInt(4096).default(64),
  /**
   * jq's WebAssembly memory may not grow past this (one growth step may overshoot it by a fifth):
   * a program that needs more fails ("ran out of memory") and its thread is replaced.
   */
  jqMemoryLimitMb: z.number().int().min(16).max(256).default(128),
  /** Largest transform output, in bytes of JSON text (or of the rendered template). */
  maxOutputBytes: positiveInt(256 * 1024 * 1024).default(1024 * 1024),
  /** Compiled Handlebars templates kept in memory. */
  handlebarsCacheSize: positiveInt(100_000).default(500),
  /** Iterations of `#each` blocks allowed in one render. */
  handlebarsMaxIterations: positiveInt(10_000_000).default(50_000),
  /**
   * Wall-clock time a Handlebars render may hold the calling thread (the event loop); a render
   * past it gives way and runs again on an offload thread, as do that template's later renders.
   */
  handlebarsSliceMs: z.number().min(0).max(1_000).default(2),
  /**
   * Worker threads for work moved off the event loop: Handlebars renders past their slice and
   * schema-validator pattern checks too costly to match inline.
   */
  offloadThreads: positiveInt(64).default(1),
  /** Wall-clock limit of one offloaded task (a render, a validator's pattern checks). */
  offloadTimeoutMs: positiveInt(60_000).default(100),
  /** Heap of each offload thread. */
  offloadMemoryLimitMb: z.number().int().min(16).max(4096).default(128),
});
export type TransformRunnerOptions = z.input<typeof TransformRunnerOptions>;
