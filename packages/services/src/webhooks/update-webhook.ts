import { updateWebhookLocked } from "@hookflow/db";
import {
  NotFoundError,
  openWebhookSecret,
  sealWebhookSecret,
  settingsFromPatch,
  settingsOfRecord,
  type UpdateWebhookInput,
  type WebhookResponse,
} from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import { checkChainTargets } from "./check-chain.js";
import type { WebhooksContext } from "./context.js";
import { loadVisibleWebhook, publishWebhookChanged, webhookBody } from "./webhook-records.js";

/**
 * Only the fields given change; nested objects merge field by field, lists are replaced, and
 * cross-field rules are checked on the merged result.
 */
export async function updateWebhook(
  ctx: WebhooksContext,
  actor: Actor,
  input: { id: string; patch: UpdateWebhookInput },
): Promise<WebhookResponse> {
  requireScope(actor, "webhooks:write");
  const { id, patch } = input;
  await loadVisibleWebhook(ctx, actor, id);
  if (patch.chainWebhookIds) {
    await checkChainTargets(ctx, actor, id, patch.chainWebhookIds);
  }
  const now = ctx.now();
  const { keyRing } = ctx;
  const result = await updateWebhookLocked(ctx.db.db, id, (current) => {
    const incoming = current.incomingSignatureSecret;
    const settings = settingsFromPatch(
      settingsOfRecord(current, {
        incomingSignatureSecret:
          incoming === null
            ? null
            : openWebhookSecret(keyRing, id, "incoming_signature_secret", incoming),
      }),
      patch,
    );
    const secret = settings.incomingSignatureSecret;
    return {
      ...settings,
      // Resealed only when the request sets it; otherwise the stored value stays as it is.
      incomingSignatureSecret:
        patch.incomingSignatureSecret === undefined
          ? incoming
          : secret === null
            ? null
            : sealWebhookSecret(keyRing, id, "incoming_signature_secret", secret),
      updatedAt: now,
    };
  });
  if (!result) throw new NotFoundError("Webhook not found");
  await publishWebhookChanged(ctx, id);
  return webhookBody(ctx, result.after);
}
