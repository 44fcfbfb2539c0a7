import { insertWebhook } from "@hookflow/db";
import {
  type CreateWebhookInput,
  newId,
  newIngressToken,
  newSigningSecret,
  sealWebhookSecrets,
  settingsFromCreate,
  type WebhookResponse,
} from "@hookflow/domain";
import { ownershipOf, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { checkChainTargets } from "./check-chain.js";
import type { WebhooksContext } from "./context.js";
import { webhookBody } from "./webhook-records.js";

/**
 * A new webhook of the acting owner. The ingress token and, unless given, the signing secret are
 * generated; both are stored sealed (docs/decisions.md, "Secrets at rest").
 */
export async function createWebhook(
  ctx: WebhooksContext,
  actor: Actor,
  input: CreateWebhookInput,
): Promise<WebhookResponse> {
  requireScope(actor, "webhooks:write");
  const settings = settingsFromCreate(input);
  await checkChainTargets(ctx, actor, null, settings.chainWebhookIds);
  const now = ctx.now();
  const id = newId("webhook", now.getTime());
  const row = await insertWebhook(ctx.db.db, {
    ...settings,
    ...ownershipOf(actor),
    ...sealWebhookSecrets(ctx.keyRing, id, {
      ingressToken: newIngressToken(),
      signingSecret: input.signingSecret ?? newSigningSecret(),
      incomingSignatureSecret: settings.incomingSignatureSecret,
    }),
    id,
    createdAt: now,
    updatedAt: now,
  });
  return webhookBody(ctx, row);
}
