import { randomBytes } from "node:crypto";
import {
  createKeyRing,
  type KeyRing,
  openWebhookSecrets,
  type Sealed,
  sealedKeyId,
  sealWebhookSecret,
  sealWebhookSecrets,
  type WebhookSecrets,
} from "@hookflow/domain";
import { createDb, type DbHandle } from "../../client.js";
import { dropDatabase, migrateDatabase } from "../../migrate.js";
import { sealStoredWebhookSecrets } from "./seal-webhook-secrets.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const before = createKeyRing({ current: oldKey });
const during = createKeyRing({ current: newKey, previous: [oldKey] });
const after = createKeyRing({ current: newKey });

let url: string;
let handle: DbHandle;
let count = 0;

beforeAll(async () => {
  const parsed = new URL(base);
  parsed.pathname = `/hf_seal_${randomBytes(5).toString("hex")}`;
  url = parsed.toString();
  await migrateDatabase({ url });
  handle = createDb({ url, max: 3 });
  await handle.sql`insert into users (id, email, password_hash) values ('usr_1', 'u@example.test', 'x')`;
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(url);
});

beforeEach(async () => {
  await handle.sql`delete from webhooks`;
});

async function insertSealed(ring: KeyRing): Promise<{ id: string; secrets: WebhookSecrets }> {
  count += 1;
  const id = `wh_${String(count).padStart(4, "0")}`;
  const secrets = {
    ingressToken: `tok-${id}-${randomBytes(8).toString("hex")}`,
    signingSecret: `whsec_${id}`,
    incomingSignatureSecret: count % 2 === 0 ? null : `incoming-${id}`,
  };
  const sealed = sealWebhookSecrets(ring, id, secrets);
  await handle.sql`insert into webhooks (id, owner_id, name, ingress_token, token_hash,
      signing_secret, incoming_signature_secret)
    values (${id}, 'usr_1', 'w', ${sealed.ingressToken}, ${sealed.tokenHash},
      ${sealed.signingSecret}, ${sealed.incomingSignatureSecret})`;
  return { id, secrets };
}

async function storedRows() {
  return handle.sql<
    Array<{
      id: string;
      ingress_token: Sealed;
      token_hash: string;
      signing_secret: Sealed;
      incoming_signature_secret: Sealed | null;
    }>
  >`select id, ingress_token, token_hash, signing_secret, incoming_signature_secret
    from webhooks order by id`;
}

describe("sealStoredWebhookSecrets", () => {
  it("moves every row to the current key in batches, token hashes included, idempotently", async () => {
    const seeded = [];
    for (let i = 0; i < 7; i++) seeded.push(await insertSealed(before));
    const batches: number[] = [];
    const first = await sealStoredWebhookSecrets(handle.sql, {
      keyRing: during,
      scope: "rotate",
      batchSize: 3,
      onBatch: (progress) => batches.push(progress.sealed),
    });
    expect(first).toEqual({ found: 7, sealed: 7, changed: 0, failed: [] });
    expect(batches).toEqual([3, 6, 7]);

    const rows = await storedRows();
    for (const row of rows) {
      for (const value of [row.ingress_token, row.signing_secret, row.incoming_signature_secret]) {
        if (value !== null) expect(sealedKeyId(value)).toBe(after.currentKeyId);
      }
    }
    // The old key can go: the new one alone opens everything and matches every token.
    expect(
      rows.map((row) =>
        openWebhookSecrets(after, {
          id: row.id,
          ingressToken: row.ingress_token,
          signingSecret: row.signing_secret,
          incomingSignatureSecret: row.incoming_signature_secret,
        }),
      ),
    ).toEqual(seeded.map((webhook) => webhook.secrets));
    expect(rows.map((row) => row.token_hash)).toEqual(
      seeded.map((webhook) => after.lookupHash(webhook.secrets.ingressToken)),
    );

    const again = await sealStoredWebhookSecrets(handle.sql, { keyRing: during, scope: "rotate" });
    expect(again).toEqual({ found: 0, sealed: 0, changed: 0, failed: [] });
    expect(await storedRows()).toEqual(rows);
  });

  it("leaves values under an older key alone when only sealing values in clear", async () => {
    await insertSealed(before);
    const result = await sealStoredWebhookSecrets(handle.sql, { keyRing: during, scope: "clear" });
    expect(result.found).toBe(0);
  });

  it("never overwrites a concurrent write: that row is left to the writer, then picked up", async () => {
    const webhook = await insertSealed(before);
    // The api rotates the signing secret (under the new key) in a transaction still open when
    // the rotation reads the row; the rotation's guarded UPDATE waits for it, then finds the row
    // changed and leaves it.
    const writer = createDb({ url, max: 1 });
    let sealing: ReturnType<typeof sealStoredWebhookSecrets> | undefined;
    await writer.sql.begin(async (tx) => {
      const sealed = sealWebhookSecret(during, webhook.id, "signing_secret", "whsec_rotated");
      await tx`update webhooks set signing_secret = ${sealed} where id = ${webhook.id}`;
      sealing = sealStoredWebhookSecrets(handle.sql, { keyRing: during, scope: "rotate" });
      // Positive signal: the rotation's UPDATE waits for this transaction's row lock.
      for (;;) {
        const [waiting] = await tx`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`;
        if ((waiting?.n ?? 0) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    await writer.close();
    expect(await sealing).toMatchObject({ found: 1, sealed: 0, changed: 1 });

    const next = await sealStoredWebhookSecrets(handle.sql, { keyRing: during, scope: "rotate" });
    expect(next).toMatchObject({ found: 1, sealed: 1, changed: 0 });
    const [row] = await storedRows();
    if (!row) throw new Error("row missing");
    expect(
      openWebhookSecrets(after, {
        id: row.id,
        ingressToken: row.ingress_token,
        signingSecret: row.signing_secret,
        incomingSignatureSecret: row.incoming_signature_secret,
      }),
    ).toEqual({ ...webhook.secrets, signingSecret: "whsec_rotated" });
  });

  it("reports a row no key of the ring opens and touches nothing of it", async () => {
    const stranger = createKeyRing({ current: randomBytes(32) });
    const lost = await insertSealed(stranger);
    const kept = await insertSealed(before);
    const rowsBefore = await storedRows();
    const result = await sealStoredWebhookSecrets(handle.sql, { keyRing: during, scope: "rotate" });
    expect(result).toEqual({
      found: 2,
      sealed: 1,
      changed: 0,
      failed: [{ id: lost.id, reason: "unknown_key" }],
    });
    const rowsAfter = await storedRows();
    expect(rowsAfter.find((row) => row.id === lost.id)).toEqual(
      rowsBefore.find((row) => row.id === lost.id),
    );
    expect(rowsAfter.find((row) => row.id === kept.id)?.token_hash).toBe(
      after.lookupHash(kept.secrets.ingressToken),
    );
  });
});
