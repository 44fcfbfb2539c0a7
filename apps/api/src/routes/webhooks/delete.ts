import { createRoute } from "@hono/zod-openapi";
import { deleteWebhook } from "@hookflow/services";
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
  operationId: "deleteWebhook",
  method: "delete",
  path: "/api/webhooks/{id}",
  tags: [WEBHOOKS_TAG],
  summary: "Delete a webhook",
  description:
    "Deletes the webhook with its events and delivery attempts, and removes their waiting and " +
    "delayed jobs from the queues (at most 10,000; any further ones end without a request when " +
    "they run); its ingress URL answers 404 " +
    "from then on. In the same transaction it is removed from every node that references it " +
    "(inputNodes, router routes, rate-limiter outputs) and from every additional target's inputNodes and every webhook's chainWebhookIds; 409 when a node of the webhook's own " +
    "owner cannot do without it (a router whose only route leads to it). Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    204: { description: "Deleted" },
    ...errorResponses(401, 403, 404, 409),
  },
});

export function registerDeleteWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    await deleteWebhook(services, c.get("actor"), c.req.valid("param"));
    return c.body(null, 204);
  });
}
