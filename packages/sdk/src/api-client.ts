import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/schema.js";
import { createRetryingFetch, type TransportOptions } from "./retrying-fetch.js";

export type { paths } from "./generated/schema.js";
export type ApiClient = Client<paths>;

/** A credential, or a function giving the current one (read on every request). */
export type TokenSource = string | undefined | (() => string | undefined);

export interface ApiClientOptions extends TransportOptions {
  /** Where Hookflow runs, e.g. `http://localhost:3000` (no `/api`; a trailing slash is fine). */
  baseUrl: string;
  /** An API key (`hf_live_...`) or a session token (`hfs_...`) sent as `Authorization: Bearer`. */
  token?: TokenSource;
  /** Acts for this organization (`X-Organization-Id`); the caller must be a member. */
  organizationId?: string | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
}

export function tokenOf(source: TokenSource): string | undefined {
  return typeof source === "function" ? source() : source;
}

/**
 * The typed low-level client: one method per HTTP verb over the paths of the OpenAPI document
 * (`client.GET("/api/webhooks/{id}", { params: { path: { id } } })`), answers typed from the
 * generated schema. Runs in browsers and Node (no Node-only imports). Requests carry the token
 * and organization, time out after 10 s and retry 429/503 as `createRetryingFetch` describes;
 * error answers are returned as `{ error, response }`, not thrown.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: createRetryingFetch(options),
    headers: options.headers,
  });
  client.use({
    onRequest({ request }) {
      const token = tokenOf(options.token);
      if (token && !request.headers.has("authorization")) {
        request.headers.set("authorization", `Bearer ${token}`);
      }
      if (options.organizationId && !request.headers.has("x-organization-id")) {
        request.headers.set("x-organization-id", options.organizationId);
      }
      return request;
    },
  });
  return client;
}
