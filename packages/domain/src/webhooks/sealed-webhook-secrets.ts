import { isSealed, type KeyRing, type Sealed, sealedKeyId } from "../crypto/key-ring.js";

/** The credentials of a webhook, in clear: only ever in memory. */
export interface WebhookSecrets {
  ingressToken: string;
  signingSecret: string;
  incomingSignatureSecret: string | null;
}

/** The same credentials as stored: sealed, and the ingress token's lookup hash. */
export interface SealedWebhookSecrets {
  ingressToken: Sealed;
  tokenHash: string;
  signingSecret: Sealed;
  incomingSignatureSecret: Sealed | null;
}

export type WebhookSecretColumn = "ingress_token" | "signing_secret" | "incoming_signature_secret";

/** The authenticated context of a sealed column: a value opens only in its own row and column. */
export function webhookSecretContext(webhookId: string, column: WebhookSecretColumn): string {
  return `webhooks.${column}:${webhookId}`;
}

export function sealWebhookSecret(
  ring: KeyRing,
  webhookId: string,
  column: WebhookSecretColumn,
  value: string,
): Sealed {
  return ring.seal(value, webhookSecretContext(webhookId, column));
}

export function openWebhookSecret(
  ring: KeyRing,
  webhookId: string,
  column: WebhookSecretColumn,
  value: Sealed,
): string {
  return ring.open(value, webhookSecretContext(webhookId, column));
}

/** A new ingress token as stored: sealed, with the hash the ingress looks it up by. */
export function sealIngressToken(
  ring: KeyRing,
  webhookId: string,
  token: string,
): { ingressToken: Sealed; tokenHash: string } {
  return {
    ingressToken: sealWebhookSecret(ring, webhookId, "ingress_token", token),
    tokenHash: ring.lookupHash(token),
  };
}

export function sealWebhookSecrets(
  ring: KeyRing,
  webhookId: string,
  secrets: WebhookSecrets,
): SealedWebhookSecrets {
  return {
    ...sealIngressToken(ring, webhookId, secrets.ingressToken),
    signingSecret: sealWebhookSecret(ring, webhookId, "signing_secret", secrets.signingSecret),
    incomingSignatureSecret:
      secrets.incomingSignatureSecret === null
        ? null
        : sealWebhookSecret(
            ring,
            webhookId,
            "incoming_signature_secret",
            secrets.incomingSignatureSecret,
          ),
  };
}

/** The stored credential columns of one webhook row. */
export interface StoredWebhookSecrets {
  id: string;
  ingressToken: Sealed;
  signingSecret: Sealed;
  incomingSignatureSecret: Sealed | null;
}

export function openWebhookSecrets(ring: KeyRing, row: StoredWebhookSecrets): WebhookSecrets {
  return {
    ingressToken: openWebhookSecret(ring, row.id, "ingress_token", row.ingressToken),
    signingSecret: openWebhookSecret(ring, row.id, "signing_secret", row.signingSecret),
    incomingSignatureSecret:
      row.incomingSignatureSecret === null
        ? null
        : openWebhookSecret(ring, row.id, "incoming_signature_secret", row.incomingSignatureSecret),
  };
}

/**
 * The credential columns of a row as they may be found in the database: sealed under the current
 * key, under an older key of the ring, or still in clear (written before encryption at rest).
 */
export interface WebhookSecretsAsFound {
  id: string;
  ingressToken: string;
  tokenHash: string | null;
  signingSecret: string;
  incomingSignatureSecret: string | null;
}

function openAsFound(ring: KeyRing, id: string, column: WebhookSecretColumn, value: string) {
  return isSealed(value) ? openWebhookSecret(ring, id, column, value) : value;
}

/**
 * What a row must become so every credential is sealed under the ring's current key and its token
 * hash is the current key's; null when it already is. Values in clear are sealed as they are.
 * Throws `SealedValueError` for a value sealed under a key the ring does not hold.
 */
export function resealWebhookSecrets(
  ring: KeyRing,
  row: WebhookSecretsAsFound,
): SealedWebhookSecrets | null {
  const current = (value: string | null) =>
    value === null || sealedKeyId(value) === ring.currentKeyId;
  const settled =
    current(row.ingressToken) &&
    current(row.signingSecret) &&
    current(row.incomingSignatureSecret) &&
    row.tokenHash !== null;
  if (settled) return null;
  return sealWebhookSecrets(ring, row.id, {
    ingressToken: openAsFound(ring, row.id, "ingress_token", row.ingressToken),
    signingSecret: openAsFound(ring, row.id, "signing_secret", row.signingSecret),
    incomingSignatureSecret:
      row.incomingSignatureSecret === null
        ? null
        : openAsFound(ring, row.id, "incoming_signature_secret", row.incomingSignatureSecret),
  });
}
