import { targetDeliveries } from "@hookflow/db";
import { enqueueDeliveries, jobIdOf, laneQueue } from "@hookflow/queue";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { insertEventRow } from "./nodes-fixtures.js";

let api: ApiHarness;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

describe("DELETE /api/webhooks/:id", () => {
  it("removes the webhook's waiting and delayed jobs, and no other webhook's", async () => {
    const user = await createUserWithSession(api.database.db);
    const create = (name: string) =>
      api.call("POST", "/api/webhooks", {
        token: user.token,
        body: { name, targetUrl: "https://example.com/h", priority: 2 },
      });
    const doomed = (await create("doomed")).body.id as string;
    const kept = (await create("kept")).body.id as string;
    const pending = await insertEventRow(api.database.db, doomed, { a: 1 }, { priority: 2 });
    const retrying = await insertEventRow(
      api.database.db,
      doomed,
      { a: 2 },
      { priority: 2, status: "retrying" },
    );
    const other = await insertEventRow(api.database.db, kept, { a: 3 }, { priority: 2 });
    await api.database.db.insert(targetDeliveries).values({
      eventId: pending,
      targetId: "tgt_x",
      webhookId: doomed,
      run: 0,
      priority: 2,
      body: "{}",
    });
    const jobs = [
      { priority: 2, data: { eventId: pending, webhookId: doomed } },
      { priority: 2, data: { eventId: retrying, webhookId: doomed }, delayMs: 600_000 },
      {
        priority: 2,
        data: { eventId: pending, webhookId: doomed, targetId: "tgt_x" },
        delayMs: 600_000,
      },
      { priority: 2, data: { eventId: other, webhookId: kept } },
    ];
    await enqueueDeliveries(api.services.queues, jobs);
    const queue = laneQueue(api.services.queues, 2);
    for (const job of jobs) expect(await queue.getJob(jobIdOf(job.data))).toBeDefined();

    const res = await api.call("DELETE", `/api/webhooks/${doomed}`, { token: user.token });
    expect(res.status).toBe(204);
    const left = await Promise.all(jobs.map((job) => queue.getJob(jobIdOf(job.data))));
    expect(left.map((job) => job?.id)).toEqual([undefined, undefined, undefined, other]);
  });
});
