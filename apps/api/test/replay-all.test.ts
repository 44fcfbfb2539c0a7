import { type DeliveryQueues, deliveryQueueName } from "@hookflow/queue";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertWebhookRow } from "./nodes-fixtures.js";

/** Replay-all of more failed events than one batch holds (the batch lowered to 100). */
const BATCH = 100;
const FAILED = 2_530;

let api: ApiHarness;
let token: string;
let ownerId: string;

beforeAll(async () => {
  api = await startApi({}, { replayAllBatchSize: BATCH });
  ({ token, userId: ownerId } = await createUserWithSession(api.database.db));
});

afterAll(async () => {
  await api?.close();
});

function lane(queues: DeliveryQueues, priority: number) {
  const queue = [...queues.values()].find((q) => q.name === deliveryQueueName(priority));
  if (!queue) throw new Error(`no lane ${priority}`);
  return queue;
}

/**
 * `count` failed events of the webhook in one statement, several per millisecond of arrival (the
 * walk must keep its place between events of one millisecond), plus a few in other states.
 */
async function insertFailedEvents(webhookId: string, count: number): Promise<void> {
  await api.database.sql`
    insert into events (id, webhook_id, body, headers, status, priority, created_at)
    select ${webhookId} || '_' || lpad(n::text, 6, '0'), ${webhookId}, '{"n":' || n || '}', '{}'::jsonb,
      'failed', 2, timestamptz '2024-05-01T00:00:00Z' + (n / 3) * interval '1 microsecond' * 700
    from generate_series(1, ${count}) as n`;
  await api.database.sql`
    insert into events (id, webhook_id, body, headers, status, priority)
    values (${webhookId} || '_delivered', ${webhookId}, '{}', '{}'::jsonb, 'delivered', 2),
           (${webhookId} || '_filtered', ${webhookId}, '{}', '{}'::jsonb, 'filtered', 2)`;
}

describe("POST /api/events/replay-all with many failed events", () => {
  it("reopens and queues every one of them, in statements of at most one batch", async () => {
    const webhookId = await insertWebhookRow(api.database.db, ownerId, { priority: 2 });
    await insertFailedEvents(webhookId, FAILED);

    const res = await api.call("POST", `/api/events/replay-all?webhookId=${webhookId}`, { token });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: FAILED });

    const statuses = await api.database.sql<{ status: string; count: number }[]>`
      select status, count(*)::int as count from events where webhook_id = ${webhookId}
      group by status order by status`;
    expect(statuses).toEqual([
      { status: "delivered", count: 1 },
      { status: "filtered", count: 1 },
      { status: "pending", count: FAILED },
    ]);
    const queue = lane(api.services.queues, 2);
    expect(await queue.getWaitingCount()).toBe(FAILED);
    expect(await queue.getJob(`${webhookId}_000001`)).toBeDefined();
    expect(await queue.getJob(`${webhookId}_${String(FAILED).padStart(6, "0")}`)).toBeDefined();
    expect(await queue.getJob(`${webhookId}_delivered`)).toBeUndefined();

    // Each UPDATE is its own transaction, so the rows one statement reopened share their xmin:
    // the replay wrote them in ceil(N / batch) statements of at most one batch each.
    const writes = await api.database.sql<{ rows: number }[]>`
      select count(*)::int as rows from events
      where webhook_id = ${webhookId} and status = 'pending' group by xmin::text`;
    expect(writes).toHaveLength(Math.ceil(FAILED / BATCH));
    expect(Math.max(...writes.map((write) => write.rows))).toBe(BATCH);

    const again = await api.call("POST", `/api/events/replay-all?webhookId=${webhookId}`, {
      token,
    });
    expect(again.body).toEqual({ queued: 0 });
  });

  it("replays events that fail again later, and only those", async () => {
    const webhookId = await insertWebhookRow(api.database.db, ownerId, { priority: 2 });
    await insertFailedEvents(webhookId, 250);
    expect(
      (await api.call("POST", `/api/events/replay-all?webhookId=${webhookId}`, { token })).body,
    ).toEqual({ queued: 250 });
    const again = [`${webhookId}_000007`, `${webhookId}_000199`];
    await api.database
      .sql`update events set status = 'failed' where id in ${api.database.sql(again)}`;
    expect(
      (await api.call("POST", `/api/events/replay-all?webhookId=${webhookId}`, { token })).body,
    ).toEqual({ queued: 2 });
  });
});
