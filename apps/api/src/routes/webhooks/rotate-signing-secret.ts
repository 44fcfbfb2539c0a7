import { z } from "@hono/zod-openapi";
import { rotateWebhookSigningSecret } from "@hookflow/db";
import { NotFoundError, newSigningSecret } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-route-kit.js";

const route = webhookActionRoute({
  operationId: "rotateWebhookSigningSecret",
  action: "rotate-signing-secret",
  summary: "Rotate the signing secret",
  description: "Issues a new whsec_ secret; deliveries are signed with it from now on.",
  responseDescription: "The new secret",
  response: z.object({ signingSecret: z.string() }),
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
