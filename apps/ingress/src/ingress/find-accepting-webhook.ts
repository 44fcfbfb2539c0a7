import { type Database, findIngressWebhookByTokenHash, type IngressWebhook } from "@hookflow/db";
import { type KeyRing, openWebhookSecret } from "@hookflow/domain";

/** What the ingress needs to accept an event for a webhook, its incoming secret opened. */
export interface AcceptingWebhook extends Omit<IngressWebhook, "incomingSignatureSecret"> {
  incomingSignatureSecret: string | null;
}

/**
 * Finds the webhook of an ingress token by the token's keyed hash (never by the token, which is
 * stored sealed) and opens its incoming signature secret. Runs on a token-cache miss only: one
 * HMAC per key of the ring and one AES-GCM open, a few microseconds.
 */
export async function findAcceptingWebhook(
  deps: { db: Database; keyRing: KeyRing },
  token: string,
): Promise<AcceptingWebhook | null> {
  const row = await findIngressWebhookByTokenHash(deps.db, deps.keyRing.lookupHashes(token));
  if (!row) return null;
  const sealed = row.incomingSignatureSecret;
  return {
    ...row,
    incomingSignatureSecret:
      sealed === null
        ? null
        : openWebhookSecret(deps.keyRing, row.id, "incoming_signature_secret", sealed),
  };
}
