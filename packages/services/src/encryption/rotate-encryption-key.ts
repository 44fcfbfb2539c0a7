import { resealStoredCredentials, type SealProgress, sealStoredWebhookSecrets } from "@hookflow/db";
import type { ServiceContext } from "../context.js";

/** Passes over the table: a row changed by a concurrent write is looked at again next pass. */
const MAX_PASSES = 5;

export interface EncryptionKeyRotation {
  keyId: string;
  webhooksResealed: number;
  webhooksChangedMeanwhile: number;
  webhooksNotOpened: SealProgress["failed"];
  credentialsResealed: number;
  credentialsChangedMeanwhile: number;
  credentialsNotOpened: SealProgress["failed"];
}

/** Runs one sealing pass after another until none meets a row changed meanwhile. */
async function inPasses(pass: () => Promise<SealProgress>): Promise<SealProgress> {
  const total: SealProgress = { found: 0, sealed: 0, changed: 0, failed: [] };
  for (let n = 0; n < MAX_PASSES; n++) {
    const progress = await pass();
    total.sealed += progress.sealed;
    total.failed = progress.failed;
    total.changed = progress.changed;
    if (progress.changed === 0) break;
  }
  return total;
}

/**
 * `hookflow admin rotate-encryption-key`: reseals every stored secret (webhook tokens and secrets,
 * credentials' data) under the key ring's current key, in batches. Idempotent and safe while
 * Hookflow runs: a row changed meanwhile keeps the writer's values and is checked again.
 */
export async function rotateEncryptionKey(
  ctx: Pick<ServiceContext, "db" | "keyRing">,
  input: { batchSize: number },
): Promise<EncryptionKeyRotation> {
  const { keyRing } = ctx;
  const webhooks = await inPasses(() =>
    sealStoredWebhookSecrets(ctx.db.sql, { keyRing, scope: "rotate", batchSize: input.batchSize }),
  );
  const credentials = await inPasses(() =>
    resealStoredCredentials(ctx.db.sql, { keyRing, batchSize: input.batchSize }),
  );
  return {
    keyId: keyRing.currentKeyId,
    webhooksResealed: webhooks.sealed,
    webhooksChangedMeanwhile: webhooks.changed,
    webhooksNotOpened: webhooks.failed,
    credentialsResealed: credentials.sealed,
    credentialsChangedMeanwhile: credentials.changed,
    credentialsNotOpened: credentials.failed,
  };
}
