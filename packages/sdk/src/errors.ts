/** The error body every Hookflow route answers with (`{statusCode, message, error}`). */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

/**
 * An error answer of the Hookflow API. `statusCode`, `message` and `error` are the body's own
 * fields (the message names the field for validation errors); `retryAfterSeconds` is set when the
 * answer carried `Retry-After`.
 */
export class HookflowError extends Error implements ErrorBody {
  override readonly name = "HookflowError";
  readonly statusCode: number;
  readonly error: string;
  readonly retryAfterSeconds: number | undefined;

  constructor(body: ErrorBody, options: { retryAfterSeconds?: number | undefined } = {}) {
    super(body.message);
    this.statusCode = body.statusCode;
    this.error = body.error;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The error body as the API sent it. */
  toJSON(): ErrorBody {
    return { statusCode: this.statusCode, message: this.message, error: this.error };
  }
}

/**
 * The request never got an answer: the server was unreachable, the connection broke, or the
 * timeout (10 s by default) ran out (`timedOut`).
 */
export class HookflowConnectionError extends Error {
  override readonly name = "HookflowConnectionError";
  readonly timedOut: boolean;

  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut ?? false;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== "object" || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    typeof body.statusCode === "number" &&
    typeof body.message === "string" &&
    typeof body.error === "string"
  );
}

/** Seconds of a `Retry-After` header (delta seconds or an HTTP date), undefined when absent. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * The `HookflowError` of a non-2xx answer: its body when it has the error shape, else one built
 * from the status (a proxy's HTML page, say), so callers always get the same fields.
 */
export function errorFromResponse(response: Response, body: unknown): HookflowError {
  const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"), Date.now());
  if (isErrorBody(body)) return new HookflowError(body, { retryAfterSeconds });
  const text = typeof body === "string" && body.trim() !== "" ? body.trim().slice(0, 200) : "";
  return new HookflowError(
    {
      statusCode: response.status,
      message: text || `HTTP ${response.status}`,
      error: response.statusText || "Error",
    },
    { retryAfterSeconds },
  );
}
