import type { TransformOutcome } from "../types.js";

/** What a jq pool is built with, and what it offers (jq-pool.ts builds it). */
export interface JqPoolOptions {
  workers: number;
  timeoutMs: number;
  maxBatch: number;
  maxBatchBytes: number;
  recycleMemoryBytes: number;
  /** jq's WebAssembly memory may not grow past this: a program needing more fails. */
  memoryLimitBytes: number;
  maxOutputBytes: number;
  /**
   * Runs of a key under load start at most this often, so calls gather into batches: a batch
   * costs about 0.25 ms besides its inputs (about 0.07 ms each). A lone call starts at once.
   * 0: never wait (calls still share a run while their key's previous one is in flight).
   */
  gatherMs: number;
}

export interface JqPool {
  /** Runs `program` on the payload (JSON text); `key` groups calls that may share a run. */
  run(key: string, program: string, inputJson: string): Promise<TransformOutcome>;
  close(): Promise<void>;
}
