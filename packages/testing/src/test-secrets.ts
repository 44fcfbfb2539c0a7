import { randomBytes } from "node:crypto";
import { type Database, type NewWebhookRow, webhooks } from "@hookflow/db";
import {
  createKeyRing,
  type KeyRing,
  newId,
  newSigningSecret,
  sealWebhookSecrets,
  type WebhookSecrets,
} from "@hookflow/domain";

/**
 * `HOOKFLOW_ENCRYPTION_KEY` of every test app (harnesses and child processes pass it), so
 * fixtures written straight into the database are sealed the way the apps open them.
 */
export const TEST_ENCRYPTION_KEY = "7e57".repeat(16);

export function testKeyRing(): KeyRing {
  return createKeyRing({ current: Buffer.from(TEST_ENCRYPTION_KEY, "hex") });
}

/** Columns of a webhook fixture, its credentials in clear (sealed on the way in). */
export type WebhookFixture = Omit<Partial<NewWebhookRow>, keyof WebhookSecrets | "tokenHash"> &
  Partial<WebhookSecrets> & { ownerId: string; name: string };

/**
 * Inserts a webhook the way the api stores one: its credentials (any left out are generated)
 * sealed under the test key, with the token's lookup hash. Returns the row and the credentials
 * in clear (`secrets.ingressToken` is what a sender posts to).
 */
export async function insertWebhookFixture(
  db: Database,
  values: WebhookFixture,
): Promise<{ row: typeof webhooks.$inferSelect; secrets: WebhookSecrets }> {
  const { ingressToken, signingSecret, incomingSignatureSecret, ...rest } = values;
  const id = rest.id ?? newId("webhook");
  const secrets: WebhookSecrets = {
    ingressToken: ingressToken ?? randomBytes(24).toString("base64url"),
    signingSecret: signingSecret ?? newSigningSecret(),
    incomingSignatureSecret: incomingSignatureSecret ?? null,
  };
  const [row] = await db
    .insert(webhooks)
    .values({ ...rest, id, ...sealWebhookSecrets(testKeyRing(), id, secrets) })
    .returning();
  if (!row) throw new Error("webhook insert returned no row");
  return { row, secrets };
}
