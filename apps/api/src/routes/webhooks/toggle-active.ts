import { z } from "@hono/zod-openapi";
import { toggleWebhookActive } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";

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
    return c.json(await toggleWebhookActive(services, c.get("actor"), c.req.valid("param")), 200);
  });
}
