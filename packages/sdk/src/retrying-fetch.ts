import { HookflowConnectionError, parseRetryAfter } from "./errors.js";

export type FetchFunction = (input: Request) => Promise<Response>;

export interface TransportOptions {
  /** The fetch to use (defaults to `globalThis.fetch`). */
  fetch?: FetchFunction | undefined;
  /** Milliseconds one attempt may take, answer body included (default 10 000; 0 = none). */
  timeoutMs?: number | undefined;
  /** Further attempts after a 429 or 503 (default 2). */
  maxRetries?: number | undefined;
  /** The longest wait between attempts; a longer `Retry-After` gives up (default 30 000 ms). */
  maxRetryDelayMs?: number | undefined;
  /** Waits this long; tests inject a clock-free one. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
/** Wait before retrying a 429/503 that carried no Retry-After: 1 s, then 2 s, ... */
const FALLBACK_DELAY_MS = 1_000;

const RETRIED_STATUSES = new Set([429, 503]);

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The wait before the next attempt, or undefined when the answer should be returned as it is. */
function retryDelay(response: Response, attempt: number, maxDelayMs: number): number | undefined {
  if (!RETRIED_STATUSES.has(response.status)) return undefined;
  const seconds = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  const delay = seconds === undefined ? FALLBACK_DELAY_MS * 2 ** attempt : seconds * 1000;
  return delay <= maxDelayMs ? delay : undefined;
}

function withTimeout(request: Request, timeoutMs: number): Request {
  if (timeoutMs <= 0) return request;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  return new Request(request, { signal });
}

function nameOf(error: unknown): string | undefined {
  // DOMExceptions from another realm (workers, test sandboxes) fail `instanceof Error`.
  return typeof error === "object" && error !== null && "name" in error
    ? String(error.name)
    : undefined;
}

function connectionError(error: unknown, request: Request, timeoutMs: number): unknown {
  if (nameOf(error) === "TimeoutError") {
    return new HookflowConnectionError(
      `${request.method} ${request.url} got no answer within ${timeoutMs} ms`,
      { cause: error, timedOut: true },
    );
  }
  if (nameOf(error) === "AbortError") return error;
  const reason = error instanceof Error ? (error.cause ?? error) : error;
  const detail = reason instanceof Error ? reason.message : String(reason);
  return new HookflowConnectionError(`Could not reach ${new URL(request.url).origin} (${detail})`, {
    cause: error,
  });
}

/**
 * A fetch with the SDK's transport rules: each attempt times out (the answer's body included),
 * 429 and 503 are retried after their `Retry-After` (or 1 s, 2 s, ... without one) up to
 * `maxRetries` times, and a wait longer than `maxRetryDelayMs` is not waited for: that answer is
 * returned. Unreachable servers and timeouts throw `HookflowConnectionError`; a caller's own
 * abort is rethrown as it is. Every other answer is returned for the caller to read.
 */
export function createRetryingFetch(options: TransportOptions = {}): FetchFunction {
  const base = options.fetch ?? ((input: Request) => globalThis.fetch(input));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxDelayMs = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const sleep = options.sleep ?? defaultSleep;
  return async (input) => {
    for (let attempt = 0; ; attempt++) {
      // A body can be sent once: each attempt but the last gets a copy.
      const request = withTimeout(attempt < maxRetries ? input.clone() : input, timeoutMs);
      let response: Response;
      try {
        response = await base(request);
      } catch (error) {
        throw connectionError(error, request, timeoutMs);
      }
      const delay = attempt < maxRetries ? retryDelay(response, attempt, maxDelayMs) : undefined;
      if (delay === undefined) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
