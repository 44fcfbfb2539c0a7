import { type ApiClientOptions, tokenOf } from "./api-client.js";
import { errorFromResponse } from "./errors.js";
import { createRetryingFetch, type FetchFunction } from "./retrying-fetch.js";

type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

type QueryValue = string | number | boolean | undefined | null;

interface RequestOptions {
  query?: Record<string, QueryValue> | undefined;
  body?: unknown;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
}

interface Answer<T> {
  data: T;
  response: Response;
}

export interface Transport {
  baseUrl: string;
  /** One API call: JSON in, JSON out; error answers throw `HookflowError`. */
  request: <T>(method: HttpMethod, path: string, options?: RequestOptions) => Promise<Answer<T>>;
  /** The same fetch (timeout, retries). */
  fetch: FetchFunction;
  /** A fetch without the timeout, for streams that stay open. */
  streamFetch: FetchFunction;
  /** The headers every request carries (credential, organization, extras). */
  headers: () => Headers;
}

function queryString(query: RequestOptions["query"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === "") return undefined;
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Path segments are always encoded: ids come from callers. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

export function createTransport(options: ApiClientOptions): Transport {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const headers = () => {
    const result = new Headers(options.headers);
    const token = tokenOf(options.token);
    if (token) result.set("authorization", `Bearer ${token}`);
    if (options.organizationId) result.set("x-organization-id", options.organizationId);
    return result;
  };
  const fetch = createRetryingFetch(options);
  return {
    baseUrl,
    fetch,
    streamFetch: createRetryingFetch({ ...options, timeoutMs: 0 }),
    headers,
    request: async <T>(method: HttpMethod, path: string, request: RequestOptions = {}) => {
      const all = headers();
      for (const [name, value] of Object.entries(request.headers ?? {})) all.set(name, value);
      let body: string | undefined;
      if (request.body !== undefined) {
        body = JSON.stringify(request.body);
        all.set("content-type", "application/json");
      }
      all.set("accept", "application/json");
      const response = await fetch(
        new Request(`${baseUrl}${path}${queryString(request.query)}`, {
          method,
          headers: all,
          body,
          signal: request.signal,
        }),
      );
      const data = await readBody(response);
      if (!response.ok) throw errorFromResponse(response, data);
      return { data: data as T, response };
    },
  };
}
