import { listActionRuns } from "@hookflow/db";
import { type Receiver, startReceiver } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, fromNode, fromWebhook } from "../pipeline/pipeline-harness.js";
import { actionSteps, waitForActionRuns } from "./actions-harness.js";

describe("post-delivery HTTP actions", () => {
  let h: WorkerHarness;
  let target: Receiver;
  let hook: Receiver;
  beforeAll(async () => {
    h = await startWorkerHarness();
    target = await startReceiver();
    hook = await startReceiver();
  });
  afterAll(async () => {
    await h.close();
    await target.close();
    await hook.close();
  });
  beforeEach(() => {
    target.requests.length = 0;
    hook.requests.length = 0;
    target.respondWith(() => ({ status: 200, body: '{"accepted":true,"ref":"r-1"}' }));
    hook.respondWith(() => ({ status: 200, body: "ok" }));
  });

  it("sends the templated request once after the delivery, and records and steps the run", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${target.url}/in`, name: "orders" });
    const action = await createNode(
      h,
      "httpAction",
      {
        url: `${hook.url}/orders/{{payload.order.id}}`,
        method: "PUT",
        headers: { "X-Order": "{{payload.order.id}}", "X-Hook": "{{webhook.name}}" },
        body: JSON.stringify({
          order: "{{payload.order}}",
          status: "{{response.status}}",
          ref: "{{response.body.ref}}",
          note: "event {{event.id}} of {{webhook.name}}",
        }),
      },
      [fromWebhook(webhook.id)],
    );
    const event = await h.createEvent(webhook, {
      body: JSON.stringify({ order: { id: "A-17", total: 12.5 } }),
    });
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run).toMatchObject({
      actionId: action.id,
      status: "success",
      tries: 1,
      statusCode: 200,
      trigger: "success",
    });
    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    expect(request?.method).toBe("PUT");
    expect(request?.path).toBe("/orders/A-17");
    expect(request?.headers["x-order"]).toBe("A-17");
    expect(request?.headers["x-hook"]).toBe("orders");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers["idempotency-key"]).toBe(run?.id);
    expect(JSON.parse(request?.body.toString() ?? "")).toEqual({
      order: { id: "A-17", total: 12.5 },
      status: 200,
      ref: "r-1",
      note: `event ${event.id} of orders`,
    });
    expect(await actionSteps(h, event.id)).toEqual(["httpAction:running", "httpAction:success"]);
  });

  it("fires once after a delivery that needed retries, by triggerOn", async () => {
    let calls = 0;
    target.respondWith(() =>
      ++calls < 3 ? { status: 500, body: "down" } : { status: 200, body: "{}" },
    );
    const webhook = await h.createWebhook({ targetUrl: target.url, maxRetries: 5 });
    const onSuccess = await createNode(
      h,
      "httpAction",
      { url: `${hook.url}/success`, triggerOn: "success" },
      [fromWebhook(webhook.id)],
    );
    await createNode(h, "httpAction", { url: `${hook.url}/failure`, triggerOn: "failure" }, [
      fromWebhook(webhook.id),
    ]);
    const always = await createNode(
      h,
      "httpAction",
      { url: `${hook.url}/always`, triggerOn: "always" },
      [fromWebhook(webhook.id)],
    );
    await createNode(h, "httpAction", { url: `${hook.url}/inactive`, isActive: false }, [
      fromWebhook(webhook.id),
    ]);
    const event = await h.createEvent(webhook);
    await h.waitForStatus(event.id, "delivered");
    const runs = await waitForActionRuns(h, event.id, 2);
    expect(runs.map((run) => run.actionId).sort()).toEqual([onSuccess.id, always.id].sort());
    expect(hook.requests.map((r) => r.path).sort()).toEqual(["/always", "/success"]);
    expect(target.requests).toHaveLength(3);
  });

  it("fires failure actions after the last failed attempt, with the failing response", async () => {
    target.respondWith(() => ({ status: 503, body: '{"reason":"maintenance"}' }));
    const webhook = await h.createWebhook({ targetUrl: target.url, maxRetries: 1 });
    await createNode(
      h,
      "httpAction",
      {
        url: `${hook.url}/alert`,
        triggerOn: "failure",
        body: '{"status":"{{response.status}}","reason":"{{response.body.reason}}"}',
      },
      [fromWebhook(webhook.id)],
    );
    await createNode(h, "httpAction", { url: `${hook.url}/success` }, [fromWebhook(webhook.id)]);
    const event = await h.createEvent(webhook);
    await h.waitForStatus(event.id, "failed");
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run?.trigger).toBe("failure");
    expect(hook.requests.map((r) => r.path)).toEqual(["/alert"]);
    expect(JSON.parse(hook.requests[0]?.body.toString() ?? "")).toEqual({
      status: 503,
      reason: "maintenance",
    });
  });

  it("retries an action whose target fails, as one run with the same idempotency key", async () => {
    let calls = 0;
    hook.respondWith(() =>
      ++calls === 1 ? { status: 502, body: "bad gateway" } : { status: 201, body: "made" },
    );
    const webhook = await h.createWebhook({ targetUrl: target.url });
    await createNode(h, "httpAction", { url: hook.url, body: "plain {{payload.n}}" }, [
      fromWebhook(webhook.id),
    ]);
    const event = await h.createEvent(webhook, { body: '{"n":5}' });
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run).toMatchObject({ status: "success", tries: 2, statusCode: 201, response: "made" });
    expect(hook.requests.map((r) => r.headers["idempotency-key"])).toEqual([run?.id, run?.id]);
    expect(hook.requests[1]?.body.toString()).toBe("plain 5");
    expect(hook.requests[1]?.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(await actionSteps(h, event.id)).toEqual([
      "httpAction:running",
      "httpAction:error",
      "httpAction:running",
      "httpAction:success",
    ]);
  });

  it("ends a run on a 4xx without retrying, recording the answer", async () => {
    hook.respondWith(() => ({ status: 422, body: '{"error":"nope"}' }));
    const webhook = await h.createWebhook({ targetUrl: target.url });
    await createNode(h, "httpAction", { url: hook.url }, [fromWebhook(webhook.id)]);
    const event = await h.createEvent(webhook);
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run).toMatchObject({
      status: "failed",
      tries: 1,
      statusCode: 422,
      error: "HTTP 422",
      response: '{"error":"nope"}',
    });
  });

  it("fires an action linked to a node of the webhook's graph, and ignores replays of the trigger", async () => {
    const webhook = await h.createWebhook({ targetUrl: target.url });
    const filter = await createNode(
      h,
      "filter",
      { filters: [{ field: "ok", operator: "exists" }] },
      [fromWebhook(webhook.id)],
    );
    await createNode(h, "httpAction", { url: hook.url }, [fromNode(filter)]);
    const event = await h.createEvent(webhook, { body: '{"ok":true}' });
    await waitForActionRuns(h, event.id, 1);
    // The same delivery job again (a redelivered job) finds the event settled and fires nothing new.
    await h.enqueue(webhook, event.id, webhook.id);
    const again = await h.createEvent(webhook, { body: '{"ok":1}' });
    await waitForActionRuns(h, again.id, 1);
    expect(await listActionRuns(h.services.db, event.id)).toHaveLength(1);
    expect(hook.requests).toHaveLength(2);
  });

  it("fires the actions of an event found delivered without their jobs (a crash lost them)", async () => {
    const webhook = await h.createWebhook({ targetUrl: target.url });
    await createNode(h, "httpAction", { url: `${hook.url}/recovered` }, [fromWebhook(webhook.id)]);
    const event = await h.createEvent(webhook, { enqueue: false });
    await h.database.sql`update events set status = 'delivered' where id = ${event.id}`;
    await h.enqueue(webhook, event.id, webhook.id);
    const [run] = await waitForActionRuns(h, event.id, 1);
    expect(run?.status).toBe("success");
    expect(hook.requests.map((r) => r.path)).toEqual(["/recovered"]);
    expect(target.requests).toHaveLength(0);
  });

  it("fires at most 20 actions per event, the first by creation", async () => {
    const webhook = await h.createWebhook({ targetUrl: target.url });
    const actions = [];
    for (let i = 0; i < 21; i++) {
      actions.push(
        await createNode(h, "httpAction", { url: `${hook.url}/n${i}` }, [fromWebhook(webhook.id)]),
      );
    }
    const event = await h.createEvent(webhook);
    const runs = await waitForActionRuns(h, event.id, 20);
    expect(runs).toHaveLength(20);
    expect(runs.map((run) => run.actionId)).not.toContain(actions[20]?.id);
  });
});
