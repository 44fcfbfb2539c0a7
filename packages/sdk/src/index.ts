export {
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  type paths,
  type TokenSource,
} from "./api-client.js";
export { type ErrorBody, HookflowConnectionError, HookflowError } from "./errors.js";
export type { components, operations } from "./generated/schema.js";
export {
  createRetryingFetch,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type TransportOptions,
} from "./retrying-fetch.js";
