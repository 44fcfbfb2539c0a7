import { rotateWebhookSigningSecret as rotateWebhookSigningSecretRow } from "@hookflow/db";
import { NotFoundError, newSigningSecret, sealWebhookSecret } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-records.js";

/** Issues a new whsec_ secret; deliveries are signed with it from now on. */
export async function rotateWebhookSigningSecret(
  ctx: ServiceContext,
  actor: Actor,
  input: { id: string },
): Promise<{ signingSecret: string }> {
  requireScope(actor, "webhooks:write");
  const { id } = input;
  await loadVisibleWebhook(ctx, actor, id);
  const signingSecret = newSigningSecret();
  const rotated = await rotateWebhookSigningSecretRow(
    ctx.db.db,
    id,
    sealWebhookSecret(ctx.keyRing, id, "signing_secret", signingSecret),
    ctx.now(),
  );
  if (!rotated) throw new NotFoundError("Webhook not found");
  await publishWebhookChanged(ctx, id);
  return { signingSecret };
}
