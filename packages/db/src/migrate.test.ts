import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createKeyRing,
  openWebhookSecrets,
  type Sealed,
  sealWebhookSecrets,
} from "@hookflow/domain";
import postgres from "postgres";
import { createDb } from "./client.js";
import { dropDatabase, MIGRATIONS_FOLDER, migrateDatabase } from "./migrate.js";
import { listEventSteps } from "./queries/steps/list-event-steps.js";

/** A copy of the migrations folder holding only the migrations up to `lastIndex`. */
function migrationsUpTo(lastIndex: number): string {
  const folder = mkdtempSync(join(tmpdir(), "hf-migrations-"));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as {
    entries: Array<{ idx: number }>;
  };
  journal.entries = journal.entries.filter((entry) => entry.idx <= lastIndex);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function freshUrl(): string {
  const url = new URL(base);
  url.pathname = `/hf_migrate_${randomBytes(5).toString("hex")}`;
  return url.toString();
}

/** Migrates a new database, runs `read` on it, and drops it again. */
async function readMigrated<T>(read: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const url = freshUrl();
  try {
    await migrateDatabase({ url });
    const sql = postgres(url, { max: 1 });
    try {
      return await read(sql);
    } finally {
      await sql.end();
    }
  } finally {
    await dropDatabase(url);
  }
}

describe("migrateDatabase", () => {
  it("creates a missing database and applies every migration", async () => {
    const tables = await readMigrated(
      (sql) =>
        sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
    );
    expect(tables.map((row) => row.table_name)).toEqual(
      expect.arrayContaining([
        "users",
        "sessions",
        "organizations",
        "memberships",
        "api_keys",
        "webhooks",
        "events",
        "delivery_attempts",
      ]),
    );
  });

  it("lets several replicas migrate at once", async () => {
    const url = freshUrl();
    try {
      await Promise.all([
        migrateDatabase({ url }),
        migrateDatabase({ url }),
        migrateDatabase({ url }),
      ]);
      const sql = postgres(url, { max: 1 });
      const [row] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      await sql.end();
      expect(row?.n).toBeGreaterThanOrEqual(1);
    } finally {
      await dropDatabase(url);
    }
  });

  it("leaves events only the indexes a query reads (0015 drops the unused parent index)", async () => {
    const rows = await readMigrated(
      (sql) =>
        sql`select indexname from pg_indexes where schemaname = 'public' and tablename = 'events' order by 1`,
    );
    // Each is read by a query: the key; the event lists by webhook (and status, and type); the
    // lists by status; the sweeper's open events; the chain steps' uniqueness and origin.
    expect(rows.map((row) => row.indexname)).toEqual([
      "events_chain_origin_idx",
      "events_chain_step_key",
      "events_open_idx",
      "events_pkey",
      "events_status_created_idx",
      "events_webhook_created_idx",
      "events_webhook_status_created_idx",
      "events_webhook_type_idx",
    ]);
  });

  it("0005 moves steps recorded one row per step into one batch per event, in order", async () => {
    const url = freshUrl();
    const before = migrationsUpTo(4);
    try {
      await migrateDatabase({ url, migrationsFolder: before });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      await sql`insert into users (id, email, password_hash) values ('usr_m', 'm@example.test', 'x')`;
      await sql`insert into webhooks (id, owner_id, name, target_url, ingress_token, signing_secret)
        values ('wh_m', 'usr_m', 'w', 'http://127.0.0.1:9/', 'tok_m', 'whsec_m')`;
      await sql`insert into events (id, webhook_id, body, status)
        values ('evt_m1', 'wh_m', '{}', 'delivered'), ('evt_m2', 'wh_m', '{}', 'failed')`;
      await sql`insert into event_steps (event_id, node_type, node_id, node_name, status,
          status_code, duration_ms, last_payload, error, at) values
        ('evt_m1', 'transform', 'trn_1', 'reshape', 'running', null, null, null, null,
          '2030-01-01T00:00:00.123Z'),
        ('evt_m2', 'schemaValidator', 'sv_1', null, 'error', null, 0, null, 'bad',
          '2030-01-01T00:00:01Z'),
        ('evt_m1', 'transform', 'trn_1', 'reshape', 'success', null, 3, '{"a": 1}', null,
          '2030-01-01T00:00:00.456Z')`;
      await sql.end();

      await migrateDatabase({ url });
      const db = createDb({ url, max: 1 });
      try {
        expect(await listEventSteps(db.db, "evt_m1")).toEqual([
          expect.objectContaining({ status: "running", nodeName: "reshape", lastPayload: null }),
          expect.objectContaining({
            status: "success",
            durationMs: 3,
            lastPayload: { a: 1 },
            at: new Date("2030-01-01T00:00:00.456Z"),
          }),
        ]);
        expect(await listEventSteps(db.db, "evt_m2")).toEqual([
          expect.objectContaining({ nodeType: "schemaValidator", nodeName: null, error: "bad" }),
        ]);
        const [left] = await db.sql`select to_regclass('event_steps') as name`;
        expect(left?.name).toBeNull();
      } finally {
        await db.close();
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
      await dropDatabase(url);
    }
  });

  it("0006 drops the step batches' foreign key, and deleting events still deletes their batches", async () => {
    const url = freshUrl();
    const before = migrationsUpTo(5);
    try {
      await migrateDatabase({ url, migrationsFolder: before });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await sql`insert into users (id, email, password_hash) values ('usr_m', 'm@example.test', 'x')`;
        await sql`insert into webhooks (id, owner_id, name, target_url, ingress_token, signing_secret)
          values ('wh_a', 'usr_m', 'a', 'http://127.0.0.1:9/', 'tok_a', 'whsec_a'),
            ('wh_b', 'usr_m', 'b', 'http://127.0.0.1:9/', 'tok_b', 'whsec_b')`;
        await sql`insert into events (id, webhook_id, body) values
          ('evt_1', 'wh_a', '{}'), ('evt_2', 'wh_a', '{}'), ('evt_3', 'wh_b', '{}'), ('evt_4', 'wh_b', '{}')`;
        const batch = (eventId: string) => sql`insert into event_step_batches (event_id, steps)
          values (${eventId}, '[{"nodeType":"filter","nodeId":"f","status":"running","at":"a"}]')`;
        for (const id of ["evt_1", "evt_1", "evt_2", "evt_3", "evt_4"]) await batch(id);
        await sql.end();

        await migrateDatabase({ url });
        const after = postgres(url, { max: 1, onnotice: () => {} });
        try {
          const fks = await after`select conname from pg_constraint
            where conrelid = 'event_step_batches'::regclass and contype = 'f'`;
          expect(fks).toHaveLength(0);
          const left = async () =>
            (
              await after<
                { event_id: string }[]
              >`select event_id from event_step_batches order by id`
            ).map((row) => row.event_id);
          // A direct delete, then a webhook's cascade: both take the events' batches along.
          await after`delete from events where id = 'evt_1'`;
          expect(await left()).toEqual(["evt_2", "evt_3", "evt_4"]);
          await after`delete from webhooks where id = 'wh_b'`;
          expect(await left()).toEqual(["evt_2"]);
          await after`delete from events where id in ('evt_2', 'evt_missing')`;
          expect(await left()).toEqual([]);
        } finally {
          await after.end();
        }
      } finally {
        await sql.end().catch(() => undefined);
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
      await dropDatabase(url);
    }
  });

  it("0007 compresses new large values with lz4 where the server has it", async () => {
    const url = freshUrl();
    try {
      await migrateDatabase({ url });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const [server] = await sql<{ lz4: boolean }[]>`select
          current_setting('server_version_num')::int >= 140000
          and exists (select 1 from pg_settings where name = 'default_toast_compression'
            and 'lz4' = any(enumvals)) as lz4`;
        const methods = await sql<{ column: string; method: string }[]>`
          select attrelid::regclass || '.' || attname as column, attcompression::text as method
          from pg_attribute
          where (attrelid, attname) in (('events'::regclass, 'body'),
            ('events'::regclass, 'delivery_body'), ('events'::regclass, 'headers'),
            ('event_step_batches'::regclass, 'steps'),
            ('delivery_attempts'::regclass, 'response_body'))
          order by 1`;
        // "l" is lz4; "" is the server's default (pglz unless configured otherwise).
        const expected = server?.lz4 ? "l" : "";
        expect(methods.map((row) => [row.column, row.method])).toEqual([
          ["delivery_attempts.response_body", expected],
          ["event_step_batches.steps", expected],
          ["events.body", expected],
          ["events.delivery_body", expected],
          ["events.headers", expected],
        ]);
        if (server?.lz4) {
          // A new large value is stored compressed with lz4.
          await sql`insert into users (id, email, password_hash) values ('usr_z', 'z@example.test', 'x')`;
          await sql`insert into webhooks (id, owner_id, name, target_url, ingress_token, signing_secret)
            values ('wh_z', 'usr_z', 'z', 'http://127.0.0.1:9/', 'tok_z', 'whsec_z')`;
          await sql`insert into events (id, webhook_id, body)
            values ('evt_z', 'wh_z', ${JSON.stringify({ note: "x".repeat(8000) })})`;
          const [stored] = await sql<{ method: string | null }[]>`
            select pg_column_compression(body) as method from events where id = 'evt_z'`;
          expect(stored?.method).toBe("lz4");
        }
      } finally {
        await sql.end();
      }
    } finally {
      await dropDatabase(url);
    }
  });

  it("0013 has events analyzed and vacuumed after 1 % of its rows changed", async () => {
    const url = freshUrl();
    try {
      await migrateDatabase({ url });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        const [row] = await sql<{ options: string[] | null }[]>`
          select reloptions as options from pg_class where oid = 'events'::regclass`;
        expect([...(row?.options ?? [])].sort()).toEqual([
          "autovacuum_analyze_scale_factor=0.01",
          "autovacuum_analyze_threshold=1000",
          "autovacuum_vacuum_scale_factor=0.02",
          "autovacuum_vacuum_threshold=1000",
        ]);
      } finally {
        await sql.end();
      }
    } finally {
      await dropDatabase(url);
    }
  });

  it("0008 moves nodes that ran in an organization webhook's graph into that organization", async () => {
    const url = freshUrl();
    const before = migrationsUpTo(7);
    try {
      await migrateDatabase({ url, migrationsFolder: before });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await sql`insert into users (id, email, password_hash) values
          ('usr_m', 'm@example.test', 'x'), ('usr_c', 'c@example.test', 'x')`;
        await sql`insert into organizations (id, name, created_by) values
          ('org_1', 'one', 'usr_m'), ('org_2', 'two', 'usr_m')`;
        const hook = (id: string, org: string | null, at: string) => sql`
          insert into webhooks (id, owner_id, organization_id, name, target_url, ingress_token,
            signing_secret, created_at)
          values (${id}, 'usr_m', ${org}, ${id}, 'http://127.0.0.1:9/', ${`tok_${id}`},
            'whsec_x', ${at})`;
        await hook("wh_org1", "org_1", "2030-01-01T00:00:00Z");
        await hook("wh_org2", "org_2", "2030-01-02T00:00:00Z");
        await hook("wh_mine", null, "2030-01-03T00:00:00Z");
        const node = (
          id: string,
          family: string,
          owner: string,
          org: string | null,
          inputs: string[],
          config: Record<string, unknown> = {},
        ) => sql`
          insert into pipeline_nodes (id, family, owner_id, organization_id, name, config,
            input_nodes)
          values (${id}, ${family}, ${owner}, ${org}, ${id}, ${sql.json(config as never)},
            ${sql.json(inputs.map((nodeId) => ({ nodeType: "any", nodeId })) as never)})`;
        // The creator's personal router on the org webhook, forwarding to their own webhook, and
        // a personal transform it feeds through a limiter's output transforms: both ran there.
        await node("rtr_p", "router", "usr_m", null, ["wh_org1"], {
          routes: [{ field: "a", operator: "exists", outputWebhookId: "wh_mine" }],
        });
        await node("rln_p", "rateLimiter", "usr_m", null, ["rtr_p"], {
          outputTransformIds: ["trn_p"],
          outputWebhookIds: [],
        });
        await node("trn_p", "transform", "usr_m", null, []);
        // On two organizations' webhooks: the older webhook's organization takes it.
        await node("fltn_both", "filter", "usr_m", null, ["wh_org2", "wh_org1"]);
        // Already in one of the organizations whose graph it ran in: stays.
        await node("fltn_org2", "filter", "usr_m", "org_2", ["wh_org1", "wh_org2"]);
        // The creator's node of another organization that ran in org_1's graph: moves.
        await node("fltn_cross", "filter", "usr_m", "org_2", ["wh_org1"]);
        // Only on a personal webhook: stays personal.
        await node("fltn_mine", "filter", "usr_m", null, ["wh_mine"]);
        // Another member's personal node never joined the graph (not the webhook's creator).
        await node("fltn_other", "filter", "usr_c", null, ["wh_org1"]);
        await sql.end();

        await migrateDatabase({ url });
        const after = postgres(url, { max: 1, onnotice: () => {} });
        try {
          const rows = await after<{ id: string; organization_id: string | null }[]>`
            select id, organization_id from pipeline_nodes order by id`;
          expect(Object.fromEntries(rows.map((r) => [r.id, r.organization_id]))).toEqual({
            fltn_both: "org_1",
            fltn_cross: "org_1",
            fltn_mine: null,
            fltn_org2: "org_2",
            fltn_other: null,
            rln_p: "org_1",
            rtr_p: "org_1",
            trn_p: "org_1",
          });
          const columns = await after<{ column_name: string }[]>`
            select column_name from information_schema.columns
            where table_name = 'events' and column_name in ('root_event_id', 'forward_depth')
            order by 1`;
          expect(columns.map((c) => c.column_name)).toEqual(["forward_depth", "root_event_id"]);
        } finally {
          await after.end();
        }
      } finally {
        await sql.end().catch(() => undefined);
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
      await dropDatabase(url);
    }
  });

  it("0009 seals credentials stored in clear at the migrate step, idempotently", async () => {
    const url = freshUrl();
    const before = migrationsUpTo(8);
    const keyRing = createKeyRing({ current: randomBytes(32) });
    try {
      await migrateDatabase({ url, migrationsFolder: before });
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await sql`insert into users (id, email, password_hash) values ('usr_s', 's@example.test', 'x')`;
        await sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret,
            incoming_signature_type, incoming_signature_secret) values
          ('wh_a', 'usr_s', 'a', 'tok-in-clear-a', 'whsec_clear_a', 'github', 'incoming-a'),
          ('wh_b', 'usr_s', 'b', 'tok-in-clear-b', 'whsec_clear_b', 'none', null)`;

        await migrateDatabase({ url, keyRing });
        const rows = await sql<
          Array<{
            id: string;
            ingress_token: Sealed;
            token_hash: string;
            signing_secret: Sealed;
            incoming_signature_secret: Sealed | null;
          }>
        >`select id, ingress_token, token_hash, signing_secret, incoming_signature_secret
          from webhooks order by id`;
        expect(JSON.stringify(rows)).not.toMatch(/clear|incoming-a/);
        const opened = rows.map((row) =>
          openWebhookSecrets(keyRing, {
            id: row.id,
            ingressToken: row.ingress_token,
            signingSecret: row.signing_secret,
            incomingSignatureSecret: row.incoming_signature_secret,
          }),
        );
        expect(opened).toEqual([
          {
            ingressToken: "tok-in-clear-a",
            signingSecret: "whsec_clear_a",
            incomingSignatureSecret: "incoming-a",
          },
          {
            ingressToken: "tok-in-clear-b",
            signingSecret: "whsec_clear_b",
            incomingSignatureSecret: null,
          },
        ]);
        expect(rows.map((row) => row.token_hash)).toEqual([
          keyRing.lookupHash("tok-in-clear-a"),
          keyRing.lookupHash("tok-in-clear-b"),
        ]);

        // Once sealed, a row is left alone; a row no configured key opens is reported, untouched.
        const stranger = sealWebhookSecrets(createKeyRing({ current: randomBytes(32) }), "wh_c", {
          ingressToken: "tok-c",
          signingSecret: "whsec_c",
          incomingSignatureSecret: null,
        });
        await sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret)
          values ('wh_c', 'usr_s', 'c', ${stranger.ingressToken}, ${stranger.signingSecret})`;
        const messages: string[] = [];
        await migrateDatabase({ url, keyRing, log: (message) => messages.push(message) });
        const again = await sql`select id, ingress_token, token_hash, signing_secret,
          incoming_signature_secret from webhooks order by id`;
        expect(again.slice(0, 2)).toEqual(rows);
        expect(again[2]).toMatchObject({ ingress_token: stranger.ingressToken, token_hash: null });
        expect(messages.join("\n")).toMatch(/1 webhooks hold credentials no configured key opens/);
      } finally {
        await sql.end();
      }
    } finally {
      rmSync(before, { recursive: true, force: true });
      await dropDatabase(url);
    }
  });
});
