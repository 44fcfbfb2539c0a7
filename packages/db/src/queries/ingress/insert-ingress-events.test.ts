import { randomBytes } from "node:crypto";
import { createDb, type DbHandle } from "../../client.js";
import { dropDatabase, migrateDatabase } from "../../migrate.js";
import { type IngressEventRow, insertIngressEventBatch } from "./insert-ingress-events.js";

const base = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
let url: string;
let handle: DbHandle;

beforeAll(async () => {
  const parsed = new URL(base);
  parsed.pathname = `/hf_ingress_insert_${randomBytes(5).toString("hex")}`;
  url = parsed.toString();
  await migrateDatabase({ url });
  handle = createDb({ url, max: 2 });
  await handle.sql`insert into users (id, email, password_hash) values ('usr_1', 'u@example.test', 'x')`;
  await handle.sql`insert into webhooks (id, owner_id, name, ingress_token, signing_secret)
    values ('wh_1', 'usr_1', 'one', 'tok_1', 'whsec_x'), ('wh_2', 'usr_1', 'two', 'tok_2', 'whsec_x')`;
});

afterAll(async () => {
  await handle.close();
  await dropDatabase(url);
});

let sequence = 0;
function rowOf(body: string, webhookId = "wh_1"): IngressEventRow {
  sequence += 1;
  return {
    id: `evt_${String(sequence).padStart(4, "0")}`,
    webhookId,
    eventType: null,
    body,
    headers: { "content-type": "application/json" },
    sourceIp: null,
    priority: 2,
    dedupKey: null,
    receivedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, sequence)),
  };
}

async function storedBodies(rows: IngressEventRow[]): Promise<string[]> {
  const ids = rows.map((row) => row.id);
  const found = await handle.sql<{ id: string; body: string }[]>`
    select id, body from events where id in ${handle.sql(ids)}`;
  const byId = new Map(found.map((row) => [row.id, row.body]));
  return ids.map((id) => byId.get(id) ?? "<missing>");
}

describe("insertIngressEventBatch", () => {
  it("stores every kind of body exactly, quoted or written into the batch as JSON", async () => {
    const bodies = [
      '{ "b" : 2 ,"a":[1, 2.50, -0.0e+5],\n"a":"dup" }',
      '[{"s":"quote \\" slash \\/ tab \\t","e":"é😀"},[]]',
      // Escapes Postgres would refuse inside a JSON value, whitespace around the value, scalars.
      '{"zero":"\\u0000","lone":"\\ud800"}',
      ' {"padded":true}\n',
      '"a string"',
      "null",
      "-1.5e3",
      "true",
    ];
    const rows = bodies.map((body) => rowOf(body));
    expect(await insertIngressEventBatch(handle, rows)).toEqual(rows.map(() => "stored"));
    expect(await storedBodies(rows)).toEqual(bodies);
  });

  it("writes a batch again with every body quoted when Postgres cannot parse one of them", async () => {
    // JSON.parse accepts this nesting; Postgres's JSON parser runs out of stack on it.
    const deep = `${"[".repeat(200_000)}${"]".repeat(200_000)}`;
    const rows = [rowOf('{"before":1}'), rowOf(deep), rowOf('[{"after":2}]')];
    expect(await insertIngressEventBatch(handle, rows)).toEqual(["stored", "stored", "stored"]);
    expect(await storedBodies(rows)).toEqual(['{"before":1}', deep, '[{"after":2}]']);
  });

  it("keeps a body that is not one JSON value from adding or rewriting rows", async () => {
    // The ingress parses every body first; should a caller ever skip that, a body spelled to
    // close its object early still cannot reach another webhook.
    const extraRow = '{}, "i":"evt_injected","w":"wh_2","a":"2030-01-01T00:00:00Z"},{"z":{}';
    const duplicateKeys = '{}, "w":"wh_2", "z":{}';
    // Each in a batch of its own: a batch that falls back to quoting hides the other.
    const first = [rowOf(extraRow), rowOf('{"plain":true}')];
    const second = [rowOf(duplicateKeys), rowOf('{"plain":true}')];
    expect(await insertIngressEventBatch(handle, first)).toEqual(["stored", "stored"]);
    expect(await insertIngressEventBatch(handle, second)).toEqual(["stored", "stored"]);
    const rows = [...first, ...second];
    // The extra object makes the batch go quoted, so that body is kept exactly; the duplicate
    // keys are read as the row's own, where the fields the batch writes after them win.
    expect(await storedBodies(first)).toEqual([extraRow, '{"plain":true}']);
    const owners = await handle.sql<{ webhook_id: string }[]>`
      select webhook_id from events where id in ${handle.sql(rows.map((row) => row.id))}`;
    expect(owners.map((row) => row.webhook_id)).toEqual(["wh_1", "wh_1", "wh_1", "wh_1"]);
    const [found] = await handle.sql<{ n: number }[]>`
      select count(*)::int as n from events where webhook_id = 'wh_2' or id = 'evt_injected'`;
    expect(found?.n).toBe(0);
  });

  it("still reports rows of a deleted webhook as missing and stores the others", async () => {
    const rows = [rowOf('{"kept":1}'), rowOf('{"lost":1}', "wh_gone")];
    expect(await insertIngressEventBatch(handle, rows)).toEqual(["stored", "webhook_missing"]);
    expect(await storedBodies(rows)).toEqual(['{"kept":1}', "<missing>"]);
  });
});
