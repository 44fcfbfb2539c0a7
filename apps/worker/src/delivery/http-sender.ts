import { checkTargetUrl } from "@hookflow/domain";
import { Agent, request } from "undici";
import { guardedLookup, PrivateTargetError, RefusedTargetError } from "./guarded-lookup.js";
import { readHead, utf8Head } from "./response-head.js";

const RESPONSE_BODY_LIMIT = 4096;

export interface SendResult {
  /** 0 when no HTTP response arrived. */
  statusCode: number;
  /** First 4 KB of the response body (UTF-8, NUL bytes removed). */
  responseBody: string;
  /** The raw `Retry-After` header, when present. */
  retryAfter: string | null;
  latencyMs: number;
  /** Set when the request failed before a response (timeout, DNS, refused target, ...). */
  error: string | null;
  /** True when the target was refused (private address, bad URL): no request was sent. */
  refused: boolean;
}

export interface HttpSender {
  send: (input: {
    url: string;
    headers: Record<string, string>;
    body: string;
    /** POST unless given (scheduled workflows choose theirs); GET and HEAD send no body. */
    method?: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";
  }) => Promise<SendResult>;
  close: () => Promise<void>;
}

function stripNul(text: string): string {
  return text.includes("\u0000") ? text.replaceAll("\u0000", "") : text;
}

function describeError(error: unknown, timeoutMs: number): { message: string; refused: boolean } {
  if (error instanceof RefusedTargetError) return { message: error.message, refused: true };
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof RefusedTargetError) return { message: cause.message, refused: true };
  const err = error as { name?: string; code?: string; message?: string };
  if (
    err.name === "TimeoutError" ||
    err.name === "AbortError" ||
    err.code === "UND_ERR_HEADERS_TIMEOUT" ||
    err.code === "UND_ERR_BODY_TIMEOUT" ||
    err.code === "UND_ERR_CONNECT_TIMEOUT"
  ) {
    return { message: `timeout: no complete response within ${timeoutMs} ms`, refused: false };
  }
  const code = err.code ? `${err.code}: ` : "";
  return { message: stripNul(`${code}${err.message ?? String(error)}`), refused: false };
}

/**
 * Outbound HTTP for deliveries: one keep-alive connection pool per origin (undici `Agent`), the
 * delivery timeout on headers, body and the whole exchange, and at most 4 KB of each response
 * kept (larger bodies are cut off and the connection dropped). Unless private targets are
 * allowed, IP literals are checked here and host names at connect time by `guardedLookup`.
 */
export function createHttpSender(options: {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  connections?: number;
}): HttpSender {
  const { timeoutMs, allowPrivateTargets } = options;
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
    connections: options.connections ?? 256,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      timeout: timeoutMs,
      ...(allowPrivateTargets ? {} : { lookup: guardedLookup }),
    },
  });

  const send: HttpSender["send"] = async ({ url, headers, body, method = "POST" }) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (error: unknown): SendResult => {
      const { message, refused } = describeError(error, timeoutMs);
      return {
        statusCode: 0,
        responseBody: "",
        retryAfter: null,
        latencyMs: elapsed(),
        error: message,
        refused,
      };
    };
    const check = checkTargetUrl(url, { allowPrivate: allowPrivateTargets });
    if (!check.ok) {
      const host = URL.canParse(url) ? new URL(url).hostname : url;
      return fail(
        check.reason === "private_address"
          ? new PrivateTargetError(host, host)
          : new RefusedTargetError(`target refused: ${check.reason.replaceAll("_", " ")}: ${url}`),
      );
    }
    try {
      const response = await request(url, {
        method,
        headers,
        body: method === "GET" || method === "HEAD" ? null : body,
        dispatcher: agent,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const head = await readHead(response.body, RESPONSE_BODY_LIMIT);
      const text = utf8Head(head, RESPONSE_BODY_LIMIT);
      const retryAfter = response.headers["retry-after"];
      return {
        statusCode: response.statusCode,
        responseBody: stripNul(text),
        retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
        latencyMs: elapsed(),
        error: null,
        refused: false,
      };
    } catch (error) {
      return fail(error);
    }
  };

  return { send, close: () => agent.close() };
}
