import { organizations } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import type { FamilyConfig, PipelineNode } from "@hookflow/pipeline";
import { scheduledRetryDelayMs, syncWorkflowScheduler } from "@hookflow/queue";
import {
  createTestRedisPrefix,
  type Receiver,
  startReceiver,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import type { WorkerServices } from "../../src/services.js";
import { type RunningWorker, startWorker } from "../../src/start-worker.js";
import { buildTestWorkerServices, startWorkerHarness, type WorkerHarness } from "../harness.js";
import { createNode, stepOutline } from "../pipeline/pipeline-harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  h = await startWorkerHarness({ ALLOW_PRIVATE_TARGETS: "true" }, { intervalMs: 60_000 });
  receiver = await startReceiver();
  let flakyCalls = 0;
  receiver.respondWith((request) => {
    if (request.path === "/gone") return { status: 404, body: "no" };
    if (request.path === "/flaky") {
      flakyCalls += 1;
      return flakyCalls === 1 ? { status: 503, body: "busy" } : { status: 200, body: "ok" };
    }
    return { status: 200, body: '{"ok":true}' };
  });
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

type WorkflowConfig = FamilyConfig<"scheduledWorkflow">;

/** Stores a workflow as the api would and gives it its scheduler, as the api's write does. */
async function createWorkflow(
  config: Partial<WorkflowConfig>,
): Promise<PipelineNode<"scheduledWorkflow">> {
  const node = await createNode(h, "scheduledWorkflow", config, [], "tick");
  await sync(node.id);
  return node;
}

async function sync(id: string): Promise<void> {
  const row = await h.database.db.query.pipelineNodes.findFirst({
    where: (n, { eq }) => eq(n.id, id),
  });
  const workflow = row ? { id, config: row.config as WorkflowConfig } : undefined;
  await syncWorkflowScheduler(h.services.schedules, id, workflow, scheduledRetryDelayMs(0.001));
}

async function setConfig(id: string, config: object): Promise<void> {
  await h.services.db
    .sql`update pipeline_nodes set config = ${JSON.stringify(config)}::jsonb where id = ${id}`;
}

async function setActive(id: string, isActive: boolean): Promise<void> {
  const row = await h.database.db.query.pipelineNodes.findFirst({
    where: (n, { eq }) => eq(n.id, id),
  });
  if (!row) throw new Error(`no workflow ${id}`);
  await setConfig(id, { ...row.config, isActive });
  await sync(id);
}

const runsOf = (workflowId: string) =>
  h.database.db.query.scheduledWorkflowRuns.findMany({
    where: (r, { eq }) => eq(r.workflowId, workflowId),
    orderBy: (r, { asc }) => [asc(r.scheduledFor)],
  });

const requestsAt = (path: string) => receiver.requests.filter((r) => r.path === path);

describe("scheduled workflows in url mode", () => {
  it("fire exactly once per tick with two workers running", async () => {
    // A second worker process on the same database and Redis: both take schedule jobs.
    const second: WorkerServices = buildTestWorkerServices(
      h.database,
      { url: h.services.config.redisUrl, prefix: h.services.config.redisPrefix } as TestRedisPrefix,
      { ALLOW_PRIVATE_TARGETS: "true" },
      { intervalMs: 60_000 },
    );
    const secondWorker: RunningWorker = await startWorker(second);
    try {
      const workflow = await createWorkflow({
        cronExpression: "* * * * * *",
        url: `${receiver.url}/every-second`,
        method: "PUT",
        headers: { "X-Custom": "yes" },
        body: JSON.stringify({ hello: "cron" }),
      });
      await waitUntil(() => (requestsAt("/every-second").length >= 4 ? true : undefined), {
        timeoutMs: 20_000,
      });
      await setActive(workflow.id, false);
      // Every run claimed before the pause finishes; then the receiver and the runs agree.
      const runs = await waitUntil(async () => {
        const rows = await runsOf(workflow.id);
        return rows.every((run) => run.status === "succeeded") &&
          rows.length === requestsAt("/every-second").length
          ? rows
          : undefined;
      });
      const ticks = requestsAt("/every-second").map((r) => r.headers["x-hookflow-scheduled-for"]);
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(ticks.sort()).toEqual(runs.map((run) => run.scheduledFor.toISOString()).sort());
      for (const run of runs) {
        expect(run.scheduledFor.getUTCMilliseconds()).toBe(0);
        expect(run).toMatchObject({ mode: "url", statusCode: 200, attempts: 1 });
      }
      const [first] = requestsAt("/every-second");
      expect(first?.method).toBe("PUT");
      expect(first?.headers["x-custom"]).toBe("yes");
      expect(JSON.parse(first?.body.toString("utf8") ?? "")).toEqual({ hello: "cron" });
      expect(await h.services.schedules.getJobScheduler(workflow.id)).toBeUndefined();
    } finally {
      await secondWorker.close();
      await second.close();
    }
  });

  it("retry a failing url and record each attempt on the tick's run", async () => {
    const workflow = await createWorkflow({
      cronExpression: "* * * * * *",
      url: `${receiver.url}/flaky`,
    });
    const run = await waitUntil(async () => {
      const [first] = await runsOf(workflow.id);
      return first?.status === "succeeded" ? first : undefined;
    });
    await setActive(workflow.id, false);
    expect(run).toMatchObject({ attempts: 2, statusCode: 200, responseBody: "ok", error: null });
    expect(run.finishedAt).not.toBeNull();
  });

  it("never retry a 4xx answer", async () => {
    const workflow = await createWorkflow({
      cronExpression: "* * * * * *",
      url: `${receiver.url}/gone`,
    });
    const run = await waitUntil(async () => {
      const [first] = await runsOf(workflow.id);
      return first?.status === "failed" ? first : undefined;
    });
    await setActive(workflow.id, false);
    expect(run).toMatchObject({ attempts: 1, statusCode: 404, error: "the url answered 404" });
  });
});

describe("scheduled workflows in webhook mode", () => {
  it("inject the body as an event that is delivered like any other", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/from-cron` });
    const workflow = await createWorkflow({
      cronExpression: "* * * * * *",
      webhookId: webhook.id,
      body: JSON.stringify({ type: "report.due" }),
    });
    const run = await waitUntil(async () => {
      const [first] = await runsOf(workflow.id);
      return first?.status === "succeeded" ? first : undefined;
    });
    await setActive(workflow.id, false);
    expect(run.mode).toBe("webhook");
    if (!run.eventId) throw new Error("no event recorded");
    const event = await h.waitForStatus(run.eventId, "delivered");
    expect(event).toMatchObject({ webhookId: webhook.id, eventType: "report.due" });
    expect(event.headers["x-hookflow-scheduled-workflow"]).toBe(workflow.id);
    const delivered = requestsAt("/from-cron").map((r) => JSON.parse(r.body.toString("utf8")));
    expect(delivered).toContainEqual({ type: "report.due" });
  });

  it("fail the run, injecting nothing, once the webhook belongs to another scope", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/elsewhere` });
    const workflow = await createWorkflow({
      cronExpression: "* * * * * *",
      webhookId: webhook.id,
    });
    // The workflow is moved to an organization the webhook is not in (a stale graph).
    const organizationId = newId("organization");
    await h.database.db
      .insert(organizations)
      .values({ id: organizationId, name: "elsewhere", createdBy: h.ownerId });
    await h.services.db
      .sql`update pipeline_nodes set organization_id = ${organizationId} where id = ${workflow.id}`;
    const run = await waitUntil(async () => {
      const rows = await runsOf(workflow.id);
      return rows.find((row) => row.status === "failed");
    });
    await setActive(workflow.id, false);
    expect(run.eventId).toBeNull();
    expect(run.error).toMatch(/^blocked: webhook .* is not of this workflow's organization/);
    expect(requestsAt("/elsewhere")).toHaveLength(0);
  });
});

describe("a scheduled workflow as a node's input", () => {
  it("runs its ticks through the nodes it feeds; the webhook's own events skip them", async () => {
    const webhook = await h.createWebhook({ targetUrl: `${receiver.url}/fed` });
    const workflow = await createNode(
      h,
      "scheduledWorkflow",
      { cronExpression: "* * * * * *", webhookId: webhook.id, body: '{"n":1}' },
      [],
      "feeder",
    );
    const transform = await createNode(
      h,
      "transform",
      { transformMode: "jq", template: "{wrapped: .}" },
      [{ nodeType: "scheduledWorkflow", nodeId: workflow.id }],
    );
    await sync(workflow.id);
    const run = await waitUntil(async () => {
      const [first] = await runsOf(workflow.id);
      return first?.status === "succeeded" ? first : undefined;
    });
    await setActive(workflow.id, false);
    if (!run.eventId) throw new Error("no event recorded");
    const tick = await h.waitForStatus(run.eventId, "delivered");
    expect(tick.entryNodeId).toBe(workflow.id);
    expect(JSON.parse(tick.deliveryBody ?? "")).toEqual({ wrapped: { n: 1 } });
    expect(await stepOutline(h, run.eventId)).toEqual([
      `${transform.id}:running`,
      `${transform.id}:success`,
    ]);

    const plain = await h.createEvent(webhook, { body: '{"n":2}' });
    await h.waitForStatus(plain.id, "delivered");
    expect(await stepOutline(h, plain.id)).toEqual([]);
    const bodies = requestsAt("/fed").map((r) => JSON.parse(r.body.toString("utf8")));
    expect(bodies).toContainEqual({ wrapped: { n: 1 } });
    expect(bodies).toContainEqual({ n: 2 });
  });
});

describe("schedulers", () => {
  it("are restored by the sweeper after Redis lost them, and removed once paused", async () => {
    const workflow = await createWorkflow({
      cronExpression: "0 0 1 1 *",
      timezone: "Europe/Berlin",
      url: `${receiver.url}/yearly`,
    });
    expect(await h.services.schedules.getJobScheduler(workflow.id)).toMatchObject({
      pattern: "0 0 1 1 *",
      tz: "Europe/Berlin",
    });
    await h.services.schedules.removeJobScheduler(workflow.id);
    await h.services.redis.del(`${h.services.config.redisPrefix}:lease:delivery-sweeper`);
    await h.worker.sweepNow();
    const restored = await h.services.schedules.getJobScheduler(workflow.id);
    expect(restored).toMatchObject({ pattern: "0 0 1 1 *", tz: "Europe/Berlin" });
    // Midnight of 1 January in Berlin is 23:00 UTC the day before.
    expect(new Date(restored?.next ?? 0).toISOString()).toMatch(/-12-31T23:00:00\.000Z$/);

    // Paused in Postgres while its scheduler stayed (a failed sync): the sweeper drops it.
    await setConfig(workflow.id, { ...workflow.config, isActive: false });
    await h.services.redis.del(`${h.services.config.redisPrefix}:lease:delivery-sweeper`);
    await h.worker.sweepNow();
    expect(await h.services.schedules.getJobScheduler(workflow.id)).toBeUndefined();
  });
});

describe("the private-address guard", () => {
  let redis: TestRedisPrefix;
  let guarded: WorkerServices;
  let guardedWorker: RunningWorker;

  beforeAll(async () => {
    redis = createTestRedisPrefix();
    guarded = buildTestWorkerServices(h.database, redis, { ALLOW_PRIVATE_TARGETS: "false" });
    guardedWorker = await startWorker(guarded);
  });

  afterAll(async () => {
    await guardedWorker.close();
    await guarded.close();
    await redis.destroy();
  });

  it("refuses a url on a private address without sending anything", async () => {
    const workflow = await createNode(
      h,
      "scheduledWorkflow",
      { cronExpression: "* * * * * *", url: `${receiver.url}/private` },
      [],
    );
    await syncWorkflowScheduler(
      guarded.schedules,
      workflow.id,
      { id: workflow.id, config: workflow.config },
      10,
    );
    const run = await waitUntil(async () => {
      const [first] = await runsOf(workflow.id);
      return first?.status === "failed" ? first : undefined;
    });
    await syncWorkflowScheduler(guarded.schedules, workflow.id, undefined, 10);
    expect(run.attempts).toBe(1);
    expect(run.error).toMatch(/private/i);
    expect(requestsAt("/private")).toHaveLength(0);
  });
});
