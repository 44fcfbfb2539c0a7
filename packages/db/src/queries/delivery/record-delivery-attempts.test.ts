import { randomBytes } from "node:crypto";
import { createDb, type DbHandle } from "../../client.js";
import { drizzle, postgres } from "../../drizzle.js";
import { dropDatabase, migrateDatabase } from "../../migrate.js";
import * as schema from "../../schema/index.js";
import { findDeliveryEvents } from "./find-delivery-event.js";
import type { RecordDeliveryAttemptInput } from "./record-delivery-attempt.js";
import { recordDeliveryAttempts } from "./record-delivery-attempts.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let url: string;
let handle: DbHandle;
let serial = 0;

beforeAll(async () => {
  const parsed = new URL(base);
  parsed.pathname = `/hf_records_${randomBytes(5).toString("hex")}`;
  url = parsed.toString();
  await migrateDatabase({ url });
  handle = createDb({ url, max: 3 });
  await handle.sql`insert into users (id, email, password_hash) values ('usr_1', 'u@example.test', 'x')`;
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(url);
});

async function webhook(values: { degradedAfter?: number; downAfter?: number } = {}) {
  const id = `wh_${++serial}`;
  await handle.sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret,
      degraded_after, down_after)
    values (${id}, 'usr_1', ${id}, ${`tok_${id}`}, 'whsec_x', ${values.degradedAfter ?? 2},
      ${values.downAfter ?? 4})`;
  return id;
}

async function event(webhookId: string, status = "pending") {
  const id = `evt_${++serial}`;
  await handle.sql`insert into events (id, webhook_id, status, body, headers)
    values (${id}, ${webhookId}, ${status}, ${`{"n":${serial}}`}, '{}'::jsonb)`;
  return id;
}

const NOW = new Date("2030-01-01T00:00:00.000Z");

function attempt(eventId: string, webhookId: string, success: boolean): RecordDeliveryAttemptInput {
  return {
    eventId,
    webhookId,
    attempt: {
      id: `att_${++serial}`,
      eventId,
      webhookId,
      targetUrl: "http://127.0.0.1:9/hook",
      attempt: 1,
      statusCode: success ? 200 : 500,
      responseBody: success ? "ok" : "boom",
      latencyMs: 3,
      success,
      error: success ? null : "HTTP 500",
      isFallback: false,
      attemptedAt: NOW,
    },
    event: success
      ? { status: "delivered", nextAttemptAt: null, deliveredAt: NOW, attemptCount: 1 }
      : { status: "failed", nextAttemptAt: null, attemptCount: 1, lastError: "HTTP 500" },
    primaryOutcome: { success },
    now: NOW,
  };
}

async function health(webhookId: string) {
  const [row] = await handle.sql<{ consecutive_failures: number; health_status: string }[]>`
    select consecutive_failures, health_status from webhooks where id = ${webhookId}`;
  return row;
}

describe("recordDeliveryAttempts", () => {
  it("records every attempt and event of a batch in one statement, in input order", async () => {
    const hook = await webhook();
    const a = await event(hook);
    const b = await event(hook);
    const results = await recordDeliveryAttempts(handle, [
      attempt(a, hook, true),
      attempt(b, hook, true),
    ]);
    expect(results).toEqual([{ eventUpdated: true }, { eventUpdated: true }]);
    const events = await findDeliveryEvents(handle, [
      { id: a, withBody: true },
      { id: b, withBody: false },
      { id: "evt_missing", withBody: true },
    ]);
    expect(events.map((e) => [e?.status, e?.attemptCount, e?.body])).toEqual([
      ["delivered", 1, '{"n":2}'],
      ["delivered", 1, undefined],
      [undefined, undefined, undefined],
    ]);
    const attempts = await handle.sql`select event_id from delivery_attempts
      where webhook_id = ${hook} order by event_id`;
    expect(attempts.map((r) => r.event_id)).toEqual([a, b].sort());
  });

  it("keeps the attempt but leaves an event that is no longer open as it is", async () => {
    const hook = await webhook();
    const cancelled = await event(hook, "cancelled");
    const [result] = await recordDeliveryAttempts(handle, [attempt(cancelled, hook, true)]);
    expect(result).toEqual({ eventUpdated: false });
    const [row] = await handle.sql`select status from events where id = ${cancelled}`;
    expect(row?.status).toBe("cancelled");
    const [count] = await handle.sql`select count(*)::int as n from delivery_attempts
      where event_id = ${cancelled}`;
    expect(count?.n).toBe(1);
  });

  it("counts a webhook's failures in batch order: a success resets, later failures add up", async () => {
    const hook = await webhook({ degradedAfter: 2, downAfter: 3 });
    const ids = await Promise.all([1, 2, 3, 4].map(() => event(hook)));
    const [e1, e2, e3, e4] = ids as [string, string, string, string];
    await recordDeliveryAttempts(handle, [
      attempt(e1, hook, false),
      attempt(e2, hook, false),
      attempt(e3, hook, true),
      attempt(e4, hook, false),
    ]);
    expect(await health(hook)).toEqual({ consecutive_failures: 1, health_status: "healthy" });
    const more = await Promise.all([1, 2].map(() => event(hook)));
    const results = await recordDeliveryAttempts(
      handle,
      more.map((id) => attempt(id, hook, false)),
    );
    expect(await health(hook)).toEqual({ consecutive_failures: 3, health_status: "down" });
    expect(results[1]?.health).toEqual({ consecutiveFailures: 3, healthStatus: "down" });
  });

  it("stores a graph's steps with the record of an event it updates, and only then", async () => {
    const hook = await webhook();
    const open = await event(hook);
    const settled = await event(hook, "delivered");
    const withSteps = (id: string): RecordDeliveryAttemptInput => ({
      ...attempt(id, hook, true),
      pipeline: {
        state: { claimed: true },
        deliveryBody: '{"shaped":true}',
        steps: [`{"nodeType":"filter","eventId":"${id}"}`],
      },
    });
    await recordDeliveryAttempts(handle, [withSteps(open), withSteps(settled)]);
    const batches = await handle.sql<{ event_id: string; steps: unknown }[]>`
      select event_id, steps from event_step_batches where event_id in (${open}, ${settled})`;
    expect(batches).toEqual([{ event_id: open, steps: [{ nodeType: "filter", eventId: open }] }]);
    const [row] = await handle.sql`select delivery_body, pipeline_state from events
      where id = ${open}`;
    expect(row).toEqual({ delivery_body: '{"shaped":true}', pipeline_state: { claimed: true } });
  });

  it("finds a batch's events by key in every plan, however few events were open when planned", async () => {
    // Few open events among some settled ones, with fresh statistics: the moment a worker's
    // connection caches the statement's generic plan. A plan that reads the open events through
    // their partial index (or the status index), or the whole table, would keep scanning all of
    // them for every later batch as the table grows.
    const hook = await webhook();
    await handle.sql`insert into events (id, webhook_id, status, body, headers)
      select 'evt_settled_' || g, ${hook}, 'delivered', '{}', '{}'::jsonb
      from generate_series(1, 2000) g`;
    const open = await event(hook);
    await handle.sql`analyze events`;
    const plans: string[] = [];
    const explaining = postgres(url, {
      max: 1,
      onnotice: (notice) => plans.push(String(notice.message)),
      // Always the cached generic plan.
      connection: { plan_cache_mode: "force_generic_plan" },
    });
    try {
      // Drizzle sets the client's JSON parameters to pass text through, as createDb's client.
      const db = drizzle(explaining, { schema });
      await explaining`load 'auto_explain'`;
      await explaining`set auto_explain.log_min_duration = 0`;
      await explaining`set auto_explain.log_level = notice`;
      const [result] = await recordDeliveryAttempts(
        { db, sql: explaining, close: async () => {} },
        [attempt(open, hook, true)],
      );
      expect(result?.eventUpdated).toBe(true);
    } finally {
      await explaining.end({ timeout: 5 });
    }
    const plan = plans.find((text) => text.includes("Update on events"));
    expect(plan).toMatch(/Index Scan using events_pkey on events e/);
    expect(plan).not.toMatch(
      /events_open_idx|events_status_created_idx|events_webhook_status|Seq Scan on events/,
    );
  });
});
