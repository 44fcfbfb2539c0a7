import { createRoute } from "@hono/zod-openapi";
import { CreateWebhookInput, WebhookResponse } from "@hookflow/domain";
import { createWebhook } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { BEARER, errorResponses, scopeGuard, WEBHOOKS_TAG } from "./webhook-route-kit.js";

const route = createRoute({
  operationId: "createWebhook",
  method: "post",
  path: "/api/webhooks",
  tags: [WEBHOOKS_TAG],
  summary: "Create a webhook",
  description:
    "Accepts both published field sets. Unknown fields are ignored. The ingress token and, " +
    "unless given, the signing secret are generated. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: {
    body: { content: { "application/json": { schema: CreateWebhookInput } }, required: true },
  },
  responses: {
    201: {
      description: "The new webhook",
      content: { "application/json": { schema: WebhookResponse } },
    },
    ...errorResponses(400, 401, 403),
  },
});

export function registerCreateWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    return c.json(await createWebhook(services, c.get("actor"), c.req.valid("json")), 201);
  });
}
