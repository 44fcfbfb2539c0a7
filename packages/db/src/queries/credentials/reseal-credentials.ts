import { credentialSealContext, isSealed, type KeyRing, SealedValueError } from "@hookflow/domain";
import type postgres from "postgres";
import type { SealProgress } from "../webhooks/seal-webhook-secrets.js";

interface FoundRow {
  id: string;
  data: string;
}

/**
 * Brings every credential's data under the ring's current key (`hookflow admin
 * rotate-encryption-key`), in batches by id, idempotent and safe while the service runs: a row is
 * written only if its data is still what was read (an edit or an OAuth refresh meanwhile sealed
 * its own value under the current key). Credentials are sealed on every write, so a value in
 * clear is never expected; one found is sealed too. Values no key opens are reported, untouched.
 */
export async function resealStoredCredentials(
  sql: postgres.Sql,
  options: { keyRing: KeyRing; batchSize?: number; onBatch?: (progress: SealProgress) => void },
): Promise<SealProgress> {
  const { keyRing } = options;
  const batchSize = options.batchSize ?? 200;
  const settled = `enc:v1:${keyRing.currentKeyId}:%`;
  const progress: SealProgress = { found: 0, sealed: 0, changed: 0, failed: [] };
  let cursor = "";
  for (;;) {
    const rows = await sql<FoundRow[]>`
      select id, data from credentials
      where id > ${cursor} and data not like ${settled}
      order by id limit ${batchSize}`;
    const last = rows.at(-1);
    if (!last) return progress;
    cursor = last.id;
    progress.found += rows.length;
    const writes: Array<{ id: string; old: string; data: string }> = [];
    for (const row of rows) {
      const context = credentialSealContext(row.id);
      try {
        const plain = isSealed(row.data) ? keyRing.open(row.data, context) : row.data;
        writes.push({ id: row.id, old: row.data, data: keyRing.seal(plain, context) });
      } catch (error) {
        if (!(error instanceof SealedValueError)) throw error;
        progress.failed.push({ id: row.id, reason: error.reason });
      }
    }
    if (writes.length === 0) continue;
    const updated = await sql`
      update credentials c set data = r.data
      from json_to_recordset(${JSON.stringify(writes)}::json) as r(id text, old text, data text)
      where c.id = r.id and c.data = r.old
      returning c.id`;
    progress.sealed += updated.length;
    progress.changed += writes.length - updated.length;
    options.onBatch?.(progress);
  }
}
