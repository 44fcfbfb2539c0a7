import { z } from "@hono/zod-openapi";
import { rotateWebhookIngressToken } from "@hookflow/db";
import { NotFoundError, newIngressToken } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-route-kit.js";

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
    const { id } = c.req.valid("param");
    await loadVisibleWebhook(services, c.get("actor"), id);
    const rotated = await rotateWebhookIngressToken(
      services.db.db,
      id,
      newIngressToken(),
      services.now(),
    );
    if (!rotated) throw new NotFoundError("Webhook not found");
    await publishWebhookChanged(services, id, [rotated.oldToken]);
    return c.json({ ingressToken: rotated.ingressToken }, 200);
  });
}
