import { createRoute } from "@hono/zod-openapi";
import { WebhookResponse } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  loadVisibleWebhook,
  scopeGuard,
  WEBHOOKS_TAG,
  WebhookIdParams,
  webhookBody,
} from "./webhook-route-kit.js";

const route = createRoute({
  operationId: "getWebhook",
  method: "get",
  path: "/api/webhooks/{id}",
  tags: [WEBHOOKS_TAG],
  summary: "Get a webhook",
  description: "Needs webhooks:read.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:read")] as const,
  request: { params: WebhookIdParams },
  responses: {
    200: {
      description: "The webhook",
      content: { "application/json": { schema: WebhookResponse } },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerGetWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const row = await loadVisibleWebhook(services, c.get("actor"), c.req.valid("param").id);
    return c.json(webhookBody(services, row), 200);
  });
}
