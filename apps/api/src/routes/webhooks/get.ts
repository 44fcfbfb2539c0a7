import { createRoute } from "@hono/zod-openapi";
import { WebhookResponse } from "@hookflow/domain";
import { getWebhook } from "@hookflow/services";
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
    return c.json(await getWebhook(services, c.get("actor"), c.req.valid("param")), 200);
  });
}
