import { eq } from "drizzle-orm";
import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";

/** Replaces the ingress token; returns the old one (which must stop resolving at once). */
export async function rotateWebhookIngressToken(
  db: Database,
  id: string,
  ingressToken: string,
  now: Date,
): Promise<{ oldToken: string; ingressToken: string } | undefined> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ token: webhooks.ingressToken })
      .from(webhooks)
      .where(eq(webhooks.id, id))
      .for("update");
    if (!current) return undefined;
    await tx.update(webhooks).set({ ingressToken, updatedAt: now }).where(eq(webhooks.id, id));
    return { oldToken: current.token, ingressToken };
  });
}

export async function rotateWebhookSigningSecret(
  db: Database,
  id: string,
  signingSecret: string,
  now: Date,
): Promise<string | undefined> {
  const [row] = await db
    .update(webhooks)
    .set({ signingSecret, updatedAt: now })
    .where(eq(webhooks.id, id))
    .returning({ signingSecret: webhooks.signingSecret });
  return row?.signingSecret;
}
