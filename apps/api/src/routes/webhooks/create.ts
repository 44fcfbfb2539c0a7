import { createRoute } from "@hono/zod-openapi";
import { insertWebhook } from "@hookflow/db";
import {
  CreateWebhookInput,
  newId,
  newIngressToken,
  newSigningSecret,
  sealWebhookSecrets,
  settingsFromCreate,
  WebhookResponse,
} from "@hookflow/domain";
import { ownershipOf } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { checkChainTargets } from "./check-chain.js";
import {
  BEARER,
  errorResponses,
  scopeGuard,
  WEBHOOKS_TAG,
  webhookBody,
} from "./webhook-route-kit.js";

const route = createRoute({
  operationId: "createWebhook",
  method: "post",
  path: "/api/webhooks",
  tags: [WEBHOOKS_TAG],
  summary: "Create a webhook",
  description:
    "Accepts both published field sets. Unknown fields are ignored. The ingress token and, " +
    "unless given, the signing secret are generated. Needs webhooks:write.",
  security: BEARER,
  middleware: [scopeGuard("webhooks:write")] as const,
  request: {
    body: { content: { "application/json": { schema: CreateWebhookInput } }, required: true },
  },
  responses: {
    201: {
      description: "The new webhook",
      content: { "application/json": { schema: WebhookResponse } },
    },
    ...errorResponses(400, 401, 403),
  },
});

export function registerCreateWebhook(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const actor = c.get("actor");
    const input = c.req.valid("json");
    const settings = settingsFromCreate(input);
    await checkChainTargets(services, actor, null, settings.chainWebhookIds);
    const now = services.now();
    const id = newId("webhook", now.getTime());
    const row = await insertWebhook(services.db.db, {
      ...settings,
      ...ownershipOf(actor),
      ...sealWebhookSecrets(services.keyRing, id, {
        ingressToken: newIngressToken(),
        signingSecret: input.signingSecret ?? newSigningSecret(),
        incomingSignatureSecret: settings.incomingSignatureSecret,
      }),
      id,
      createdAt: now,
      updatedAt: now,
    });
    return c.json(webhookBody(services, row), 201);
  });
}
