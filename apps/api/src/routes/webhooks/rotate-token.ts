import { z } from "@hono/zod-openapi";
import { rotateWebhookToken } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";

const route = webhookActionRoute({
  operationId: "rotateWebhookToken",
  action: "rotate-token",
  summary: "Rotate the ingress token",
  description: "Issues a new ingress token; the old ingress URL stops working at once.",
  responseDescription: "The new token",
  response: z.object({ ingressToken: z.string() }),
});

export function registerRotateWebhookToken(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    return c.json(await rotateWebhookToken(services, c.get("actor"), c.req.valid("param")), 200);
  });
}
