import {
  type ApiClient,
  type components,
  createApiClient,
  HookflowConnectionError,
  HookflowError,
} from "@hookflow/sdk";

export type Schemas = components["schemas"];
export type Api = ApiClient;

export interface ApiOptions {
  /** Session token (or API key) sent as a bearer token. */
  token: string | null;
  /** Organization acted for (`X-Organization-Id`); null = the personal space. */
  organizationId: string | null;
  /** Called on any 401, so the console can send the user back to the login page. */
  onUnauthorized: () => void;
}

/**
 * The console's API client: the SDK's typed client (generated from the OpenAPI document, 10 s
 * timeout, 429/503 retries) on the console's own origin.
 */
export function createApi(options: ApiOptions): Api {
  const client = createApiClient({
    baseUrl: window.location.origin,
    token: options.token ?? undefined,
    organizationId: options.organizationId ?? undefined,
  });
  client.use({
    onResponse({ response }) {
      if (response.status === 401 && options.token) options.onUnauthorized();
      return response;
    },
  });
  return client;
}

interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function toError(error: unknown, response: Response): HookflowError {
  const body = (error ?? {}) as Partial<Record<"statusCode" | "message" | "error", unknown>>;
  return new HookflowError({
    statusCode: typeof body.statusCode === "number" ? body.statusCode : response.status,
    message: typeof body.message === "string" ? body.message : `HTTP ${response.status}`,
    error: typeof body.error === "string" ? body.error : response.statusText || "Error",
  });
}

/** The data of a successful call; throws the API's error shape as a `HookflowError` otherwise. */
export async function call<T>(pending: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw toError(error, response);
  return data as T;
}

/** A human message for anything a query or mutation threw. */
export function messageOf(error: unknown): string {
  if (error instanceof HookflowConnectionError) return "The server did not answer. Try again.";
  if (error instanceof Error) return error.message;
  return "Something went wrong";
}

export { HookflowError as ApiError };
