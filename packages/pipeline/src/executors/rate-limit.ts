import type { RateLimiterNodeConfig } from "../families/definitions.js";

/** What the shared sliding window said about one arrival (see `RateLimitPort`). */
export type RateLimitAnswer = { allowed: true } | { allowed: false; retryAfterMs: number };

export type RateLimitDecision =
  | { kind: "pass" }
  | { kind: "drop"; reason: string }
  | { kind: "queue"; resumeAt: number };

/**
 * What a rate limiter does with an arrival, given the window's answer. `deadline` is when a queued
 * path must have gone through (first queued at + maxQueueDelaySeconds, scaled); a wait that would
 * end past it drops the path now rather than holding it for nothing.
 */
export function decideRateLimit(
  config: RateLimiterNodeConfig,
  answer: RateLimitAnswer,
  input: { now: number; deadline: number },
): RateLimitDecision {
  if (answer.allowed) return { kind: "pass" };
  if (config.overflowAction === "drop") {
    return {
      kind: "drop",
      reason: `rate limit reached: ${config.maxEvents} per ${config.windowSeconds}s`,
    };
  }
  const resumeAt = input.now + Math.max(1, answer.retryAfterMs);
  if (resumeAt > input.deadline) {
    return {
      kind: "drop",
      reason: `rate limit queue: no free slot within maxQueueDelaySeconds (${config.maxQueueDelaySeconds}s)`,
    };
  }
  return { kind: "queue", resumeAt };
}
