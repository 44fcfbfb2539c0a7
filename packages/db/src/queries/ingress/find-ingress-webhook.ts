import type { Sealed } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { inArray } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";

/** What the ingress needs to know about a webhook to accept an event for it. */
export interface IngressWebhook {
  id: string;
  isActive: boolean;
  priority: number;
  incomingSignatureType: string;
  /** Sealed; the ingress opens it once per cache load. */
  incomingSignatureSecret: Sealed | null;
  dedupEnabled: boolean;
  dedupWindowSeconds: number;
  responseMode: string;
}

/**
 * The webhook whose ingress token has one of these lookup hashes (the token's hash under each
 * key of the ring: during a key rotation a row may still carry the previous key's hash).
 */
export async function findIngressWebhookByTokenHash(
  db: Database,
  tokenHashes: readonly string[],
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
    .where(inArray(webhooks.tokenHash, [...tokenHashes]))
    .limit(1);
  return row;
}
