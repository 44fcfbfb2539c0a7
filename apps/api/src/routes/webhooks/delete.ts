import { createRoute } from "@hono/zod-openapi";
import { deleteWebhook } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import {
  BEARER,
  errorResponses,
  loadVisibleWebhook,
  publishWebhookChanged,
  scopeGuard,
  WEBHOOKS_TAG,
  WebhookIdParams,
} from "./webhook-route-kit.js";

const route = createRoute({
  method: "delete",
  path: "/api/webhooks/{id}",
  tags: [WEBHOOKS_TAG],
  summary: "Delete a webhook",
  description:
    "Deletes the webhook with its events and delivery attempts; its ingress URL answers 404 " +
    "from then on. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(401, 403, 404),
  },
});

export function registerDeleteWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await loadVisibleWebhook(services, c.get("actor"), id);
    const deleted = await deleteWebhook(services.db.db, id);
    if (!deleted) throw new NotFoundError("Webhook not found");
    await publishWebhookChanged(services, id, [deleted.ingressToken]);
    return c.body(null, 204);
  });
}
