import { randomBytes } from "node:crypto";
import { createDb, type DbHandle } from "../../client.js";
import { drizzle, postgres } from "../../drizzle.js";
import { dropDatabase, migrateDatabase } from "../../migrate.js";
import * as schema from "../../schema/index.js";
import { findOverdueEvents } from "./find-overdue-events.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let url: string;
let handle: DbHandle;

beforeAll(async () => {
  const parsed = new URL(base);
  parsed.pathname = `/hf_overdue_${randomBytes(5).toString("hex")}`;
  url = parsed.toString();
  await migrateDatabase({ url });
  handle = createDb({ url, max: 2 });
  await handle.sql`insert into users (id, email, password_hash) values ('usr_1', 'u@example.test', 'x')`;
  await handle.sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret, is_active)
    values ('wh_on', 'usr_1', 'on', 'tok_on', 'whsec_x', true),
           ('wh_off', 'usr_1', 'off', 'tok_off', 'whsec_x', false)`;
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(url);
});

const NOW = new Date("2030-01-01T00:00:00.000Z");

describe("findOverdueEvents", () => {
  it("lists overdue open events of active webhooks oldest first, page after page", async () => {
    const at = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
    await handle.sql`insert into events (id, webhook_id, status, body, next_attempt_at,
        awaiting_approval, delayed)
      values ('evt_a', 'wh_on', 'pending', '{}', ${at(50)}, false, false),
             ('evt_b', 'wh_on', 'retrying', '{}', ${at(40)}, false, false),
             ('evt_c', 'wh_on', 'pending', '{}', ${at(40)}, false, false),
             ('evt_parked', 'wh_on', 'pending', '{}', ${at(45)}, true, false),
             ('evt_delayed', 'wh_on', 'pending', '{}', ${at(45)}, false, true),
             ('evt_inactive', 'wh_off', 'pending', '{}', ${at(45)}, false, false),
             ('evt_settled', 'wh_on', 'delivered', '{}', ${at(45)}, false, false),
             ('evt_not_due', 'wh_on', 'pending', '{}', ${at(1)}, false, false)`;
    const dueBefore = new Date(NOW.getTime() - 10_000);
    const first = await findOverdueEvents(handle.db, { dueBefore, limit: 2 });
    expect(first.map((e) => e.id)).toEqual(["evt_a", "evt_b"]);
    const last = first[1];
    if (!last) throw new Error("expected a second event");
    const second = await findOverdueEvents(handle.db, {
      dueBefore,
      limit: 2,
      after: { nextAttemptAt: last.nextAttemptAt, id: last.id },
    });
    expect(second.map((e) => e.id)).toEqual(["evt_c"]);
    await handle.sql`delete from events where id like 'evt_%'`;
  });

  it("walks the open-events index with a plain index scan, whatever the statistics say", async () => {
    // Many settled events and a few hundred open ones in no physical order, with fresh
    // statistics: the planner's own choice here is a bitmap scan, which reads the heap page of
    // every index entry (dead versions included) on every sweep and never marks dead entries.
    await handle.sql`insert into events (id, webhook_id, status, body, headers)
      select 'evt_done_' || g, 'wh_on', 'delivered', repeat('x', 1000), '{}'::jsonb
      from generate_series(1, 5000) g`;
    await handle.sql`insert into events (id, webhook_id, status, body, headers, next_attempt_at)
      select 'evt_open_' || g, 'wh_on', 'pending', repeat('x', 1000), '{}'::jsonb,
        ${NOW.toISOString()}::timestamptz - random() * interval '1 hour'
      from generate_series(1, 300) g`;
    await handle.sql`analyze events`;
    const plans: string[] = [];
    const explaining = postgres(url, {
      max: 1,
      onnotice: (notice) => plans.push(String(notice.message)),
    });
    try {
      const db = drizzle(explaining, { schema });
      await explaining`load 'auto_explain'`;
      await explaining`set auto_explain.log_min_duration = 0`;
      await explaining`set auto_explain.log_level = notice`;
      const found = await findOverdueEvents(db, { dueBefore: NOW, limit: 500 });
      expect(found).toHaveLength(300);
      // The scan settings were the sweep's transaction's only: the connection plans as before.
      const [setting] = await explaining`select current_setting('enable_bitmapscan') as bitmap,
        current_setting('enable_seqscan') as seq`;
      expect(setting).toEqual({ bitmap: "on", seq: "on" });
    } finally {
      await explaining.end({ timeout: 5 });
    }
    const plan = plans.find((text) => text.includes("next_attempt_at, e.id"));
    expect(plan).toMatch(/Index Scan using events_open_idx on events e/);
    expect(plan).not.toMatch(/Bitmap|Seq Scan on events/);
    await handle.sql`delete from events where id like 'evt_%'`;
  });
});
