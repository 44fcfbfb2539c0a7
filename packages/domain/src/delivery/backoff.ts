/** Retry timing (docs/decisions.md, "Delivery"). Pure: randomness and clock are parameters. */

export const MAX_RETRY_DELAY_MS = 24 * 60 * 60 * 1000;
export const RETRY_JITTER = 0.1;

export type RetryDelayInput = {
  /** The attempt number about to be made (1-based; the first retry is attempt 2). */
  attempt: number;
  retryDelaySeconds: number;
  backoffMultiplier: number;
  /** `HOOKFLOW_DELAY_SCALE`: multiplies the final wait (1 in production). */
  delayScale: number;
  /** Uniform in [0, 1), e.g. `Math.random`. */
  random: () => number;
};

/**
 * `retryDelaySeconds * backoffMultiplier^(attempt-2)` seconds, +-10 % jitter, capped at 24 h, then
 * scaled by `delayScale`. Whole milliseconds, never negative.
 */
export function retryDelayMs(input: RetryDelayInput): number {
  const exponent = Math.max(0, input.attempt - 2);
  const base = input.retryDelaySeconds * 1000 * input.backoffMultiplier ** exponent;
  const jitter = 1 + (input.random() * 2 - 1) * RETRY_JITTER;
  const raw = base * jitter;
  const capped = Number.isFinite(raw) ? Math.min(raw, MAX_RETRY_DELAY_MS) : MAX_RETRY_DELAY_MS;
  return Math.max(0, Math.round(capped * input.delayScale));
}

/**
 * A `Retry-After` header (delta seconds or an HTTP date) as a delay in ms from `nowMs`, capped at
 * 24 h; a date in the past gives 0. Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (header === undefined || header === null) return null;
  const text = header.trim();
  if (text === "") return null;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_DELAY_MS);
  // HTTP dates always name a weekday or month; this keeps bare numbers like "1.5" out.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_DELAY_MS);
}

export type NextAttemptDelayInput = RetryDelayInput & {
  /** Status of the attempt that just failed (0 or null when there was no response). */
  statusCode: number | null | undefined;
  retryAfter: string | null | undefined;
  nowMs: number;
};

/**
 * Wait before the next attempt: the backoff delay, raised to at least the target's `Retry-After`
 * on a 429 or 503. The Retry-After minimum is the receiver's real-time request and is not scaled.
 */
export function nextAttemptDelayMs(input: NextAttemptDelayInput): number {
  const backoff = retryDelayMs(input);
  if (input.statusCode !== 429 && input.statusCode !== 503) return backoff;
  const minimum = parseRetryAfter(input.retryAfter, input.nowMs);
  return minimum === null ? backoff : Math.max(backoff, minimum);
}
