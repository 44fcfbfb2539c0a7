export {
  type ApiClient,
  type ApiClientOptions,
  createApiClient,
  type paths,
  type TokenSource,
} from "./api-client.js";
export { createHookflowClient, type HookflowClient, type HookflowClientOptions } from "./client.js";
export { type ErrorBody, HookflowConnectionError, HookflowError } from "./errors.js";
export type { components, operations } from "./generated/schema.js";
export type { BodyOf, ItemOf, OperationId, QueryOf, ResultOf } from "./operation-types.js";
export type { Page, PageQuery } from "./paging.js";
export type { EventQuery, EventSummary } from "./resources/events.js";
export type { Webhook } from "./resources/webhooks.js";
export {
  createRetryingFetch,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type TransportOptions,
} from "./retrying-fetch.js";
export { signWebhook } from "./sign-webhook.js";
export { readServerSentEvents, type ServerSentEvent } from "./sse.js";
export {
  type VerifyWebhookFailure,
  type VerifyWebhookOptions,
  type VerifyWebhookResult,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
} from "./verify-webhook.js";
export type { WebhookStreamMessage, WebhookStreamOptions } from "./webhook-stream.js";
