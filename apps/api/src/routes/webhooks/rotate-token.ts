import { createRoute, z } from "@hono/zod-openapi";
import { rotateWebhookIngressToken } from "@hookflow/db";
import { NotFoundError, newIngressToken } from "@hookflow/domain";
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
  path: "/api/webhooks/{id}/rotate-token",
  tags: [WEBHOOKS_TAG],
  summary: "Rotate the ingress token",
  description:
    "Issues a new ingress token; the old ingress URL stops working at once. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    200: {
      description: "The new token",
      content: { "application/json": { schema: z.object({ ingressToken: z.string() }) } },
    },
    ...errorResponses(401, 403, 404),
  },
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
