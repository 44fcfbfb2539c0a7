// A throwaway database for one bench run: migrated with the CLI, seeded with a user and the
// webhooks the phases post to. Dropped again by `dropBenchDatabase`.
import { fork } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import postgres from "postgres";

export function benchDatabaseUrl(baseUrl, run) {
  const u = new URL(baseUrl);
  u.pathname = `/hookflow_bench_${run}`;
  return u.toString();
}

/**
 * Runs `hookflow migrate` against `env.DATABASE_URL` (creates the database), then gives the
 * bench's database the writeback setting the README's "Postgres settings" recommends
 * (`BENCH_PG_FLUSH_AFTER`, default 256kB; 0 keeps the server's own).
 */
export async function migrate(cli, env) {
  await new Promise((resolve, reject) => {
    const child = fork(cli, ["migrate"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`)),
    );
  });
  const flushAfter = BENCH_PG_FLUSH_AFTER;
  if (flushAfter === "0") return;
  const sql = postgres(env.DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const [{ name }] = await sql`select current_database() as name`;
    await sql.unsafe(`alter database "${name}" set backend_flush_after = '${flushAfter}'`);
  } finally {
    await sql.end();
  }
}

/** What `migrate` sets `backend_flush_after` to on the bench's database ("0": left alone). */
export const BENCH_PG_FLUSH_AFTER = /^(0|\d+(kB|MB)?)$/.test(process.env.BENCH_PG_FLUSH_AFTER ?? "")
  ? process.env.BENCH_PG_FLUSH_AFTER
  : "256kB";

/**
 * Seeds one user and three webhooks pointing at `receiverUrl`: `plain` (no incoming signature),
 * `signed` (custom HMAC over `signedBody`), `bad` (for the bad-receiver phase). They are written
 * with their credentials in clear, then `hookflow migrate` (with `env`'s encryption key) seals
 * them, as it does for rows stored before encryption at rest.
 */
export async function seedWebhooks({ cli, env, dbUrl, run, receiverUrl, signedBody }) {
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const userId = `usr_bench${run}`;
  await sql`insert into users (id, email, password_hash) values (${userId}, ${`bench-${run}@example.test`}, 'x')`;
  const mk = async (name, extra) => {
    const id = `wh_${name}${run}`;
    const token = randomBytes(24).toString("base64url");
    await sql`insert into webhooks ${sql({ id, owner_id: userId, name, target_url: receiverUrl, ingress_token: token, signing_secret: `whsec_${randomBytes(32).toString("base64")}`, max_retries: 20, retry_delay_seconds: 10, ...extra })}`;
    return { id, token };
  };
  const plain = await mk("plain", {});
  const secret = "bench-incoming-secret";
  const signed = await mk("signed", {
    incoming_signature_type: "custom",
    incoming_signature_secret: secret,
  });
  const bad = await mk("bad", {});
  await migrate(cli, env);
  return {
    sql,
    plain,
    signed,
    bad,
    signature: `sha256=${createHmac("sha256", secret).update(signedBody).digest("hex")}`,
  };
}

export async function dropBenchDatabase(baseUrl, run) {
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "hookflow_bench_${run}" with (force)`);
  await admin.end();
}

/** Deletes every Redis key of the run's prefix (queues, streams, rate windows). */
export async function dropBenchRedisKeys(redisUrl, prefix) {
  // ioredis is a dependency of @hookflow/queue, not of the workspace root.
  const { Redis } = createRequire(new URL("../../packages/queue/package.json", import.meta.url))(
    "ioredis",
  );
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export const newRunId = () => randomBytes(4).toString("hex");

/**
 * Stores `ids` as pending events of `webhookId` with `body`, as the ingress would, without
 * their jobs (a bench enqueues them when its phase starts). 1,000 rows per INSERT.
 */
export async function storePendingEvents(sql, webhookId, ids, body) {
  const now = new Date();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = ids.slice(i, i + 1000).map((id) => ({
      id,
      webhook_id: webhookId,
      status: "pending",
      body,
      priority: 3,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    }));
    await sql`insert into events ${sql(rows)}`;
  }
  return ids;
}
