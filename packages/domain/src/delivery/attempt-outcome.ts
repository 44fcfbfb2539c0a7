/** Classifying one HTTP attempt and deciding what follows a failure (docs/decisions.md, "Delivery"). */

export type AttemptClass = "success" | "retryable" | "permanent";

export type AttemptResultInput = {
  /** HTTP status; 0, null or undefined when no response arrived (timeout, DNS, reset, chaos). */
  statusCode: number | null | undefined;
  /** Transport or injected error text, when any. */
  error?: string | null | undefined;
};

/** 2xx without an error succeeds; 410 Gone stops retrying; everything else is retried. */
export function classifyAttempt({ statusCode, error }: AttemptResultInput): AttemptClass {
  if (statusCode === 410) return "permanent";
  if (!error && typeof statusCode === "number" && statusCode >= 200 && statusCode < 300) {
    return "success";
  }
  return "retryable";
}

export type FailureDecisionInput = {
  /** Attempts made so far on the current target in this run, the failed one included (1-based). */
  attempt: number;
  /** Retries allowed per target: total attempts = 1 + maxRetries. */
  maxRetries: number;
  /** The failure was permanent (410): no retry on this target. */
  permanent: boolean;
  /** A fallback URL is configured. */
  hasFallback: boolean;
  /** The failed attempt was already sent to the fallback URL. */
  onFallback: boolean;
};

export type FailureDecision = { kind: "retry" } | { kind: "fallback" } | { kind: "fail" };

/**
 * Retry the same target while its budget lasts; after the primary's last failure move to the
 * fallback (which then gets its own 1 + maxRetries attempts); otherwise the event fails.
 */
export function decideAfterFailure(input: FailureDecisionInput): FailureDecision {
  const totalAttempts = 1 + Math.max(0, input.maxRetries);
  if (!input.permanent && input.attempt < totalAttempts) return { kind: "retry" };
  if (!input.onFallback && input.hasFallback) return { kind: "fallback" };
  return { kind: "fail" };
}
