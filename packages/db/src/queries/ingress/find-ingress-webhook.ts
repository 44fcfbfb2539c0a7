import { eq } from "drizzle-orm";
import type { Database } from "../../client.js";
import { webhooks } from "../../schema/index.js";

/** What the ingress needs to know about a webhook to accept an event for it. */
export interface IngressWebhook {
  id: string;
  isActive: boolean;
  priority: number;
  incomingSignatureType: string;
  incomingSignatureSecret: string | null;
  dedupEnabled: boolean;
  dedupWindowSeconds: number;
  responseMode: string;
}

export async function findIngressWebhookByToken(
  db: Database,
  ingressToken: string,
): Promise<IngressWebhook | undefined> {
  const [row] = await db
    .select({
      id: webhooks.id,
      isActive: webhooks.isActive,
      priority: webhooks.priority,
      incomingSignatureType: webhooks.incomingSignatureType,
      incomingSignatureSecret: webhooks.incomingSignatureSecret,
      dedupEnabled: webhooks.dedupEnabled,
      dedupWindowSeconds: webhooks.dedupWindowSeconds,
      responseMode: webhooks.responseMode,
    })
    .from(webhooks)
    .where(eq(webhooks.ingressToken, ingressToken))
    .limit(1);
  return row;
}
