import type { TransformOutcome } from "../types.js";

/** What a JavaScript pool is built with, and what it offers (js-pool.ts builds it). */
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

/** The limits each sandbox process starts with (its argument, as JSON). */
export function hostConfigOf(options: JsPoolOptions): string {
  return JSON.stringify({
    cpuLimitMs: options.cpuLimitMs,
    memoryLimitMb: options.memoryLimitMb,
    maxOutputBytes: options.maxOutputBytes,
    warmContexts: options.warmContexts,
  });
}
