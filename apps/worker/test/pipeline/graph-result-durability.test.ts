import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, eventually, fromNode, fromWebhook, stepOutline } from "./pipeline-harness.js";

// The graph's result rides along with the delivery's first record (one statement fewer per
// event). When that statement fails after the request went out, the job fails and BullMQ retries
// it; the result must then be stored on its own, so the retry delivers the same bytes without
// running the graph again. The failure is real: a trigger makes Postgres reject the first insert
// into delivery_attempts (a sequence counts, since a failed statement rolls back everything else).

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness();
  receiver = await startReceiver();
  await h.database.sql.unsafe(`
    create sequence attempt_faults;
    create function fail_first_attempt() returns trigger language plpgsql as $$
    begin
      if nextval('attempt_faults') = 1 then
        raise exception 'injected failure of the first delivery record';
      end if;
      return new;
    end $$;
    create trigger fail_first_attempt before insert on delivery_attempts
      for each row execute function fail_first_attempt();
  `);
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

describe("a graph result whose delivery record failed", () => {
  it("is stored alone, and the retry delivers the same bytes without running the graph again", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/orders` });
    const filter = await createNode(
      h,
      "filter",
      { filters: [{ field: "type", operator: "eq", value: "order" }] },
      [fromWebhook(webhook.id)],
    );
    const transform = await createNode(
      h,
      "transform",
      {
        transformMode: "javascript",
        template: "return { orderId: payload.id, runId: Math.random().toString(36).slice(2) };",
      },
      [fromNode(filter)],
    );
    const { id } = await h.createEvent(webhook, {
      body: JSON.stringify({ type: "order", id: "o-7" }),
    });

    const event = await h.waitForStatus(id, "delivered", 20_000);
    const requests = await receiver.waitForRequests(2);
    const [first, second] = requests.map((request) => request.body.toString("utf8"));
    // The transform draws a random id on every run: equal bodies mean the graph ran once.
    expect(second).toBe(first);
    expect(JSON.parse(first ?? "")).toMatchObject({ orderId: "o-7" });
    expect(event.deliveryBody).toBe(first);
    const [faults] = await h.database.sql<{ last_value: string }[]>`
      select last_value from attempt_faults`;
    expect(Number(faults?.last_value)).toBe(2);
    // Only the retry's attempt is recorded; the node steps are stored once.
    const attempts = await eventually("the recorded attempt", async () => {
      const rows = await h.attempts(id);
      return rows.length > 0 ? rows : undefined;
    });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ statusCode: 200 });
    expect(await stepOutline(h, id)).toEqual([
      `${filter.id}:running`,
      `${filter.id}:success`,
      `${transform.id}:running`,
      `${transform.id}:success`,
    ]);
  });
});
