import { randomBytes } from "node:crypto";
import { createDb, type DbHandle } from "../../client.js";
import { dropDatabase, migrateDatabase } from "../../migrate.js";
import { claimApprovalMail, claimOwedApprovalMails, markApprovalMailed } from "./approval-mail.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const LEASE_MS = 60_000;
const T0 = new Date("2030-01-01T00:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

let url: string;
let handle: DbHandle;
let count = 0;

beforeAll(async () => {
  const parsed = new URL(base);
  parsed.pathname = `/hf_parks_${randomBytes(5).toString("hex")}`;
  url = parsed.toString();
  await migrateDatabase({ url });
  handle = createDb({ url, max: 2 });
  await handle.sql`insert into users (id, email, password_hash) values ('usr_1', 'u@example.test', 'x')`;
  await handle.sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret)
    values ('wh_1', 'usr_1', 'w', 'tok_1', 'whsec_x')`;
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(url);
});

/** An event with one park (a waiting approval unless told otherwise), created at `createdAt`. */
async function park(options: { kind?: string; status?: string; createdAt?: Date } = {}) {
  count += 1;
  const eventId = `evt_${count}`;
  const parkId = `prk_${count}`;
  await handle.sql`insert into events (id, webhook_id, body, pipeline_run)
    values (${eventId}, 'wh_1', '{}', ${eventId})`;
  await handle.sql`insert into event_parks
      (id, event_id, webhook_id, node_type, node_id, kind, run_id, payload, status, resume_at,
       created_at)
    values (${parkId}, ${eventId}, 'wh_1', 'approval-node', 'apv_1',
      ${options.kind ?? "approval"}, ${eventId}, '{"n":1}', ${options.status ?? "waiting"},
      ${at(3_600_000).toISOString()}::timestamptz,
      ${(options.createdAt ?? T0).toISOString()}::timestamptz)`;
  return parkId;
}

async function owed(now: Date, createdBefore = now) {
  const claimed = await claimOwedApprovalMails(handle.db, {
    createdBefore,
    now,
    leaseMs: LEASE_MS,
    limit: 100,
  });
  return claimed.map((row) => row.parkId);
}

describe("approval mail claims", () => {
  it("let one sender claim a park's mail until the claim runs out", async () => {
    const parkId = await park();
    const claim = (now: Date) => claimApprovalMail(handle.db, { parkId, now, leaseMs: LEASE_MS });
    expect(await claim(at(0))).toBe(true);
    expect(await claim(at(1))).toBe(false);
    expect(await owed(at(LEASE_MS - 1))).not.toContain(parkId);
    // The sender died or failed: after its claim the mail is owed again.
    expect(await claim(at(LEASE_MS))).toBe(true);
  });

  it("owe nothing once the mail went out", async () => {
    const parkId = await park();
    expect(await claimApprovalMail(handle.db, { parkId, now: at(0), leaseMs: LEASE_MS })).toBe(
      true,
    );
    await markApprovalMailed(handle.db, { parkId, now: at(5) });
    const [row] = await handle.sql<
      Array<{ notified_at: string | null; notify_lease_until: string | null }>
    >`
      select notified_at, notify_lease_until from event_parks where id = ${parkId}`;
    expect(new Date(row?.notified_at ?? 0)).toEqual(at(5));
    expect(row?.notify_lease_until).toBeNull();
    const later = at(10 * LEASE_MS);
    expect(await claimApprovalMail(handle.db, { parkId, now: later, leaseMs: LEASE_MS })).toBe(
      false,
    );
    expect(await owed(later)).not.toContain(parkId);
  });

  it("give the sweeper only waiting approval parks older than its grace, each once", async () => {
    const old = await park({ createdAt: at(-10_000) });
    const fresh = await park({ createdAt: at(0) });
    const delay = await park({ kind: "delay", createdAt: at(-10_000) });
    const decided = await park({ status: "approved", createdAt: at(-10_000) });
    const first = await owed(at(100), at(-1_000));
    expect(first).toContain(old);
    expect(first).not.toContain(fresh);
    expect(first).not.toContain(delay);
    expect(first).not.toContain(decided);
    expect(await owed(at(200), at(-1_000))).not.toContain(old);
  });

  it("hand a park to one of two sweepers claiming at once", async () => {
    const parkId = await park({ createdAt: at(-50_000) });
    const [a, b] = await Promise.all([owed(at(1), at(0)), owed(at(1), at(0))]);
    expect([...a, ...b].filter((id) => id === parkId)).toHaveLength(1);
  });
});
