import { type ApiClient, type ApiClientOptions, createApiClient } from "./api-client.js";
import type { ResultOf } from "./operation-types.js";
import {
  type CanvasSnapshotOps,
  collectionResource,
  nodeResources,
} from "./resources/collection.js";
import { eventsResource } from "./resources/events.js";
import {
  apiKeysResource,
  approvalsResource,
  authResource,
  organizationsResource,
} from "./resources/identity.js";
import { webhooksResource } from "./resources/webhooks.js";
import { createTransport } from "./transport.js";

export type HookflowClientOptions = ApiClientOptions;

/**
 * The high-level client: one method per route, grouped by resource, answers typed from the
 * OpenAPI document. Error answers throw `HookflowError` (`statusCode`, `message`, `error`);
 * unreachable servers and timeouts throw `HookflowConnectionError`. Each request times out after
 * 10 s (`timeoutMs`) and 429/503 answers are retried after their `Retry-After`, at most twice
 * (`maxRetries`) and never for longer than 30 s (`maxRetryDelayMs`). `api` is the typed
 * low-level client for anything else.
 */
export function createHookflowClient(options: HookflowClientOptions) {
  const transport = createTransport(options);
  return {
    api: createApiClient(options) as ApiClient,
    auth: authResource(transport),
    apiKeys: apiKeysResource(transport),
    organizations: organizationsResource(transport),
    webhooks: webhooksResource(transport),
    events: eventsResource(transport),
    nodes: nodeResources(transport),
    approvals: approvalsResource(transport),
    canvasSnapshots: collectionResource<CanvasSnapshotOps>(transport, "canvas-snapshots"),
    health: async () => (await transport.request<ResultOf<"getHealth">>("GET", "/api/health")).data,
  };
}

export type HookflowClient = ReturnType<typeof createHookflowClient>;
