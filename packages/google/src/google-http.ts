import { request } from "undici";

/** One call to a Google REST API as made (tests compare them with Google's API reference). */
export interface GoogleRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Absolute URL, query included. */
  url: string;
  /** JSON body, or a form for the token endpoint. */
  json?: unknown;
  form?: Record<string, string>;
}

export interface GoogleResponse {
  status: number;
  /** The body's text, at most `RESPONSE_LIMIT_BYTES` (a longer one is cut). */
  text: string;
  /** The body parsed, when it is JSON. */
  json: unknown;
}

/** Gmail messages and lists can be large; more than this is not read. */
export const RESPONSE_LIMIT_BYTES = 1024 * 1024;

/** Sends one request with a timeout; network failures come back as status 0 with the error. */
export async function sendGoogleRequest(
  req: GoogleRequest,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<GoogleResponse & { error?: string }> {
  const body =
    req.json !== undefined
      ? JSON.stringify(req.json)
      : req.form !== undefined
        ? new URLSearchParams(req.form).toString()
        : undefined;
  const contentType =
    req.json !== undefined
      ? { "content-type": "application/json; charset=utf-8" }
      : req.form !== undefined
        ? { "content-type": "application/x-www-form-urlencoded" }
        : {};
  try {
    const response = await request(req.url, {
      method: req.method,
      headers: { ...headers, ...contentType, accept: "application/json" },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_LIMIT_BYTES) break;
    }
    const text = Buffer.concat(chunks).subarray(0, RESPONSE_LIMIT_BYTES).toString("utf8");
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.statusCode, text, json };
  } catch (error) {
    const err = error as { name?: string; message?: string };
    const timedOut = err.name === "TimeoutError" || err.name === "AbortError";
    return {
      status: 0,
      text: "",
      json: null,
      error: timedOut ? `timeout after ${timeoutMs} ms` : (err.message ?? String(error)),
    };
  }
}
