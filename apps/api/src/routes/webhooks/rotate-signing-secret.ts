import { createRoute, z } from "@hono/zod-openapi";
import { rotateWebhookSigningSecret } from "@hookflow/db";
import { NotFoundError, newSigningSecret } from "@hookflow/domain";
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
  path: "/api/webhooks/{id}/rotate-signing-secret",
  tags: [WEBHOOKS_TAG],
  summary: "Rotate the signing secret",
  description:
    "Issues a new whsec_ secret; deliveries are signed with it from now on. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: { params: WebhookIdParams },
  responses: {
    200: {
      description: "The new secret",
      content: { "application/json": { schema: z.object({ signingSecret: z.string() }) } },
    },
    ...errorResponses(401, 403, 404),
  },
});

export function registerRotateWebhookSigningSecret(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    await loadVisibleWebhook(services, c.get("actor"), id);
    const signingSecret = await rotateWebhookSigningSecret(
      services.db.db,
      id,
      newSigningSecret(),
      services.now(),
    );
    if (signingSecret === undefined) throw new NotFoundError("Webhook not found");
    await publishWebhookChanged(services, id);
    return c.json({ signingSecret }, 200);
  });
}
