import type { Sealed } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { eq } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";

/**
 * Replaces the ingress token (sealed, with its lookup hash). The old token stops resolving once
 * the change is published: ingress caches drop every token of the webhook.
 */
export async function rotateWebhookIngressToken(
  db: Database,
  id: string,
  token: { ingressToken: Sealed; tokenHash: string },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(webhooks)
    .set({ ingressToken: token.ingressToken, tokenHash: token.tokenHash, updatedAt: now })
    .where(eq(webhooks.id, id))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

export async function rotateWebhookSigningSecret(
  db: Database,
  id: string,
  signingSecret: Sealed,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(webhooks)
    .set({ signingSecret, updatedAt: now })
    .where(eq(webhooks.id, id))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}
