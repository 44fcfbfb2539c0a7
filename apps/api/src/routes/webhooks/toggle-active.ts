import { createRoute, z } from "@hono/zod-openapi";
import { toggleWebhookActive } from "@hookflow/db";
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
  method: "post",
  path: "/api/webhooks/{id}/toggle-active",
  tags: [WEBHOOKS_TAG],
  summary: "Toggle whether a webhook delivers",
  description: "Flips isActive and returns the new value. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    200: {
      description: "The new state",
      content: { "application/json": { schema: z.object({ isActive: z.boolean() }) } },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerToggleWebhookActive(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await loadVisibleWebhook(services, c.get("actor"), id);
    const isActive = await toggleWebhookActive(services.db.db, id, services.now());
    if (isActive === undefined) throw new NotFoundError("Webhook not found");
    await publishWebhookChanged(services, id);
    return c.json({ isActive }, 200);
  });
}
