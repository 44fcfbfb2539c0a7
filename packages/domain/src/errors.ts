/**
 * Typed errors of the domain. Each app maps `code` to an HTTP status in one switch and answers
 * with the documented `{statusCode, message, error}` body.
 */
export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable";

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.headers = options?.headers ?? {};
  }
}

export class ValidationError extends AppError {
  constructor(message: string) {
    super("validation", message);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "Authentication required") {
    super("unauthorized", message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = "Forbidden") {
    super("forbidden", message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = "Not found") {
    super("not_found", message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super("conflict", message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message = "Payload too large") {
    super("payload_too_large", message);
  }
}
export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number, message = "Rate limit exceeded") {
    super("rate_limited", message, { headers: { "Retry-After": String(retryAfterSeconds) } });
  }
}
export class UnavailableError extends AppError {
  constructor(message = "Service unavailable", cause?: unknown) {
    super("unavailable", message, { cause });
  }
}

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

export function statusOfError(code: ErrorCode): number {
  return STATUS[code];
}

const PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export function statusPhrase(status: number): string {
  return PHRASES[status] ?? (status >= 500 ? "Internal Server Error" : "Bad Request");
}

/** The documented error body (docs/decisions.md, "The api's edge"). */
export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
}

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, message, error: statusPhrase(statusCode) };
}
