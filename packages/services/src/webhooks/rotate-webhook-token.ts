import { rotateWebhookIngressToken } from "@hookflow/db";
import { NotFoundError, newIngressToken, sealIngressToken } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-records.js";

/** Issues a new ingress token; the old ingress URL stops working at once. */
export async function rotateWebhookToken(
  ctx: ServiceContext,
  actor: Actor,
  input: { id: string },
): Promise<{ ingressToken: string }> {
  requireScope(actor, "webhooks:write");
  const { id } = input;
  await loadVisibleWebhook(ctx, actor, id);
  const ingressToken = newIngressToken();
  const rotated = await rotateWebhookIngressToken(
    ctx.db.db,
    id,
    sealIngressToken(ctx.keyRing, id, ingressToken),
    ctx.now(),
  );
  if (!rotated) throw new NotFoundError("Webhook not found");
  await publishWebhookChanged(ctx, id);
  return { ingressToken };
}
