import { MemoryMergeStore } from "../executors/merge.js";
import type { PatternPort } from "../executors/schema-validator.js";
import type { EnginePorts, RateLimitPort, TransformPort } from "./types.js";

/**
 * Ports for a dry run (time travel): nothing is counted, stored or sent. Transforms and costly
 * pattern checks run for real (they have no side effects); rate limiters answer from `peekRateLimit` when given (a read of
 * the window that does not count the arrival) and otherwise assume a free slot; merges live in
 * memory for this run only. Delays and approvals need no port: the engine reports their paths as
 * parked ("would wait") and stops them there.
 */
export function createDryRunPorts(options: {
  transform: TransformPort;
  patterns: PatternPort;
  peekRateLimit?: RateLimitPort["acquire"];
  now?: () => number;
  delayScale?: number;
}): EnginePorts {
  const merge = new MemoryMergeStore();
  return {
    transform: options.transform,
    patterns: options.patterns,
    rateLimit: { acquire: options.peekRateLimit ?? (async () => ({ allowed: true })) },
    merge: { arrive: (arrival) => merge.arrive(arrival), expire: (key) => merge.expire(key) },
    now: options.now ?? (() => Date.now()),
    delayScale: options.delayScale ?? 1,
  };
}
