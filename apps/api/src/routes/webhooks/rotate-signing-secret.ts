import { z } from "@hono/zod-openapi";
import { rotateWebhookSigningSecret } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { webhookActionRoute } from "./action-route.js";

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
    const rotated = await rotateWebhookSigningSecret(
      services,
      c.get("actor"),
      c.req.valid("param"),
    );
    return c.json(rotated, 200);
  });
}
