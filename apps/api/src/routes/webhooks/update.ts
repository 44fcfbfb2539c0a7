import { createRoute } from "@hono/zod-openapi";
import { UpdateWebhookInput, WebhookResponse } from "@hookflow/domain";
import { updateWebhook } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  WEBHOOKS_TAG,
  WebhookIdParams,
} from "./webhook-route-kit.js";

const route = createRoute({
  operationId: "updateWebhook",
  method: "patch",
  path: "/api/webhooks/{id}",
  tags: [WEBHOOKS_TAG],
  summary: "Update a webhook",
  description:
    "Only the fields given change. Nested objects (retryPolicy, circuitBreaker, chaosConfig, " +
    "deduplication) merge field by field; payloadFilters and chainWebhookIds replace the list. " +
    "Cross-field rules are checked on the merged result. Unknown and read-only fields are " +
    "ignored. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: {
    params: WebhookIdParams,
    body: { content: { "application/json": { schema: UpdateWebhookInput } }, required: true },
  },
  responses: {
    200: {
      description: "The updated webhook",
      content: { "application/json": { schema: WebhookResponse } },
    },
    ...errorResponses(400, 401, 403, 404),
  },
});

export function registerUpdateWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const patch = c.req.valid("json");
    return c.json(await updateWebhook(services, c.get("actor"), { id, patch }), 200);
  });
}
