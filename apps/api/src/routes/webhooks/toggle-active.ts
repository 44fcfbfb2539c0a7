import { z } from "@hono/zod-openapi";
import { toggleWebhookActive } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-route-kit.js";

const route = webhookActionRoute({
  operationId: "toggleWebhookActive",
  action: "toggle-active",
  summary: "Toggle whether a webhook delivers",
  description: "Flips isActive and returns the new value.",
  responseDescription: "The new state",
  response: z.object({ isActive: z.boolean() }),
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
