import {
  type KeyRing,
  resealWebhookSecrets,
  SealedValueError,
  type SealedWebhookSecrets,
  type WebhookSecretsAsFound,
} from "@hookflow/domain";
import type postgres from "postgres";

export interface SealWebhookSecretsOptions {
  keyRing: KeyRing;
  /**
   * `clear`: seal the values still stored in clear (the migrate step); `rotate`: also move values
   * sealed under a previous key to the current one (`hookflow admin rotate-encryption-key`).
   */
  scope: "clear" | "rotate";
  /** Rows read and written per statement. */
  batchSize?: number;
  /** Called after each batch (progress output). */
  onBatch?: (progress: SealProgress) => void;
}

export interface SealProgress {
  /** Rows that needed work. */
  found: number;
  /** Rows rewritten under the current key. */
  sealed: number;
  /** Rows changed by someone else between read and write (that writer sealed them). */
  changed: number;
  /** Rows with a value no key of the ring opens. */
  failed: Array<{ id: string; reason: SealedValueError["reason"] }>;
}

interface FoundRow {
  id: string;
  ingress_token: string;
  token_hash: string | null;
  signing_secret: string;
  incoming_signature_secret: string | null;
}

const DEFAULT_BATCH = 200;

/**
 * Brings every webhook's credentials under the ring's current key, in batches by id, idempotent
 * and safe while the service runs: each row is written only if its credential columns are still
 * those that were read (a concurrent rotation or update wins and has sealed its own values).
 * Rows whose values no key opens are reported, not touched.
 */
export async function sealStoredWebhookSecrets(
  sql: postgres.Sql,
  options: SealWebhookSecretsOptions,
): Promise<SealProgress> {
  const { keyRing } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  // A value needs work unless it starts with this prefix.
  const settled = options.scope === "rotate" ? `enc:v1:${keyRing.currentKeyId}:%` : "enc:v1:%";
  const progress: SealProgress = { found: 0, sealed: 0, changed: 0, failed: [] };
  let cursor = "";
  for (;;) {
    const rows = await sql<FoundRow[]>`
      select id, ingress_token, token_hash, signing_secret, incoming_signature_secret
      from webhooks
      where id > ${cursor}
        and (token_hash is null
          or ingress_token not like ${settled}
          or signing_secret not like ${settled}
          or incoming_signature_secret not like ${settled})
      order by id
      limit ${batchSize}
    `;
    const last = rows.at(-1);
    if (!last) return progress;
    cursor = last.id;
    progress.found += rows.length;
    const writes: Array<{ row: FoundRow; sealed: SealedWebhookSecrets }> = [];
    for (const row of rows) {
      try {
        const sealed = resealWebhookSecrets(keyRing, asFound(row));
        if (sealed) writes.push({ row, sealed });
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error;
        progress.failed.push({ id: row.id, reason: error.reason });
      }
    }
    const written = await writeSealed(sql, writes);
    progress.sealed += written;
    progress.changed += writes.length - written;
    options.onBatch?.(progress);
  }
}

function asFound(row: FoundRow): WebhookSecretsAsFound {
  return {
    id: row.id,
    ingressToken: row.ingress_token,
    tokenHash: row.token_hash,
    signingSecret: row.signing_secret,
    incomingSignatureSecret: row.incoming_signature_secret,
  };
}

/** One UPDATE for the batch, each row guarded on the values it was read with. */
async function writeSealed(
  sql: postgres.Sql,
  writes: Array<{ row: FoundRow; sealed: SealedWebhookSecrets }>,
): Promise<number> {
  if (writes.length === 0) return 0;
  const batch = JSON.stringify(
    writes.map(({ row, sealed }) => ({
      id: row.id,
      t: sealed.ingressToken,
      h: sealed.tokenHash,
      s: sealed.signingSecret,
      i: sealed.incomingSignatureSecret,
      ot: row.ingress_token,
      os: row.signing_secret,
      oi: row.incoming_signature_secret,
    })),
  );
  const updated = await sql`
    update webhooks w
    set ingress_token = r.t, token_hash = r.h, signing_secret = r.s,
      incoming_signature_secret = r.i
    from json_to_recordset(${batch}::json)
      as r(id text, t text, h text, s text, i text, ot text, os text, oi text)
    where w.id = r.id and w.ingress_token = r.ot and w.signing_secret = r.os
      and w.incoming_signature_secret is not distinct from r.oi
    returning w.id
  `;
  return updated.length;
}
