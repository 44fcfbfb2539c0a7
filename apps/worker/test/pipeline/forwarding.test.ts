import { organizations, users } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { type Receiver, startReceiver, waitUntil } from "@hookflow/testing";
import { startWorkerHarness, type WorkerHarness } from "../harness.js";
import { childrenOf, createNode, fromWebhook, recordedSteps } from "./pipeline-harness.js";

let h: WorkerHarness;
let receiver: Receiver;

beforeAll(async () => {
  // The defaults: 100 descendants per ingress event, forwards nested 5 levels deep.
  h = await startWorkerHarness();
  receiver = await startReceiver();
});

afterAll(async () => {
  await h.close();
  await receiver.close();
});

const limiterTo = (outputs: string[]) => ({
  maxEvents: 100_000,
  windowSeconds: 60,
  outputWebhookIds: outputs,
});
const routeTo = (webhookId: string) => ({
  routes: [{ field: "type", operator: "exists" as const, outputWebhookId: webhookId }],
});

/** Every event descending from `rootId`, with its status. */
async function descendantsOf(rootId: string) {
  return h.database.sql<Array<{ id: string; status: string; forward_depth: number }>>`
    select id, status, forward_depth from events where root_event_id = ${rootId}`;
}

/** Blocked forward steps recorded for the given events, with their errors. */
async function blockedForwards(eventIds: readonly string[]) {
  return h.database.sql<Array<{ event_id: string; node_id: string; error: string }>>`
    select b.event_id, s ->> 'nodeId' as node_id, s ->> 'error' as error
    from event_step_batches b, json_array_elements(b.steps) as s
    where b.event_id = any(${eventIds as string[]}::text[])
      and s ->> 'nodeType' = 'forward' and s ->> 'status' = 'blocked'`;
}

const OPEN = new Set(["pending", "retrying"]);

describe("one request cannot become millions", () => {
  it("lets at most 100 events descend from one ingress event and blocks the other forwards", async () => {
    // Three levels of ten outputs: one POST would make 10 + 100 + 1000 events without a bound.
    const hook = () => h.createWebhook({ targetUrl: `${receiver.url}/spread` });
    const root = await hook();
    const levels = [
      await Promise.all(Array.from({ length: 10 }, hook)),
      await Promise.all(Array.from({ length: 10 }, hook)),
      await Promise.all(Array.from({ length: 10 }, hook)),
    ];
    const ids = (level: number) => (levels[level] ?? []).map((w) => w.id);
    await createNode(h, "rateLimiter", limiterTo(ids(0)), [fromWebhook(root.id)]);
    for (const [level, webhooks] of levels.slice(0, 2).entries()) {
      for (const webhook of webhooks) {
        await createNode(h, "rateLimiter", limiterTo(ids(level + 1)), [fromWebhook(webhook.id)]);
      }
    }

    const { id } = await h.createEvent(root, { body: JSON.stringify({ type: "spread" }) });
    // Done when the root and exactly the budget's 100 descendants are settled.
    const settled = await waitUntil(
      async () => {
        const rows = await descendantsOf(id);
        const rootRow = await h.event(id);
        const quiet = rows.every((r) => !OPEN.has(r.status)) && !OPEN.has(rootRow.status);
        return rows.length === 100 && quiet ? rows : undefined;
      },
      { timeoutMs: 60_000 },
    );
    expect(settled).toHaveLength(100);
    // The budget is shared, not handed out level by level: under load a child may forward
    // before its siblings did, so some grandchildren can take the budget some children would
    // have. Whatever the order, every forward asked past the 100th is blocked: the root asks 10,
    // each of its 10 children 10, each grandchild on level 1 another 10 (level 2 has no nodes).
    const levelOf = await h.database.sql<Array<{ id: string; webhook_id: string }>>`
      select id, webhook_id from events where root_event_id = ${id}`;
    const onLevel = (level: number) =>
      levelOf.filter((r) => ids(level).includes(r.webhook_id)).length;
    expect(onLevel(0)).toBe(10);
    expect(onLevel(0) + onLevel(1) + onLevel(2)).toBe(100);
    const asked = 10 + 10 * onLevel(0) + 10 * onLevel(1);
    // Steps are recorded in their own batches, which may land just after the statuses.
    let seen = 0;
    const blocked = await waitUntil(
      async () => {
        const rows = await blockedForwards([id, ...settled.map((r) => r.id)]);
        seen = rows.length;
        return rows.length >= asked - 100 ? rows : undefined;
      },
      { timeoutMs: 30_000, describe: () => `${seen} of ${asked - 100} blocked forward steps` },
    );
    expect(blocked).toHaveLength(asked - 100);
    expect(blocked[0]?.error).toBe(
      `forward to ${blocked[0]?.node_id} blocked: at most 100 events may descend from one ` +
        `ingress event (GRAPH_MAX_DESCENDANTS) and the descendants of ${id} reached that`,
    );
  }, 90_000);

  it("blocks a forward nested deeper than 5 levels, while that event still delivers", async () => {
    const chain = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.createWebhook({ targetUrl: `${receiver.url}/deep/${i}` }),
      ),
    );
    for (const [i, webhook] of chain.slice(0, 7).entries()) {
      const next = chain[i + 1]?.id as string;
      // Each event goes on to its own target (the filter path) and forwards to the next webhook.
      await createNode(h, "filter", { filters: [{ field: "type", operator: "exists" }] }, [
        fromWebhook(webhook.id),
      ]);
      await createNode(h, "rateLimiter", limiterTo([next]), [fromWebhook(webhook.id)]);
    }
    const { id } = await h.createEvent(chain[0] as { id: string; priority: number }, {
      body: JSON.stringify({ type: "deep" }),
    });
    const deepest = await waitUntil(async () => {
      const rows = await descendantsOf(id);
      const last = rows.find((r) => r.forward_depth === 5);
      return last && last.status === "delivered" ? last : undefined;
    });
    const [blocked] = await blockedForwards([deepest.id]);
    expect(blocked).toEqual({
      event_id: deepest.id,
      node_id: chain[6]?.id,
      error:
        `forward to ${chain[6]?.id} blocked: forwarding nests at most 5 levels ` +
        "(GRAPH_MAX_FORWARD_DEPTH) and this event is 5 levels deep",
    });
    await waitUntil(() =>
      receiver.requests.filter((r) => r.path.startsWith("/deep/")).length >= 6 ? true : undefined,
    );
    expect(
      receiver.requests
        .filter((r) => r.path.startsWith("/deep/"))
        .map((r) => r.path)
        .sort(),
    ).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/deep/${i}`));
    expect((await descendantsOf(id)).map((r) => r.forward_depth).sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("rights are checked when the graph runs", () => {
  let org: string;
  let member: string;
  beforeAll(async () => {
    member = h.ownerId;
    org = newId("organization");
    await h.database.db.insert(organizations).values({ id: org, name: "acme", createdBy: member });
  });

  it("blocks a stored organization router's forward into a member's personal webhook", async () => {
    const orgHook = await h.createWebhook({
      organizationId: org,
      targetUrl: `${receiver.url}/org`,
    });
    const personal = await h.createWebhook({ targetUrl: `${receiver.url}/member` });
    const router = await createNode(
      h,
      "router",
      routeTo(personal.id),
      [fromWebhook(orgHook.id)],
      "leak",
      {
        ownerId: member,
        organizationId: org,
      },
    );
    const { id } = await h.createEvent(orgHook, { body: JSON.stringify({ type: "secret" }) });
    await h.waitForStatus(id, "filtered");
    expect(await childrenOf(h, id)).toEqual([]);
    const steps = (await recordedSteps(h, id)).map((s) => [
      s.nodeType,
      s.nodeId,
      s.status,
      s.error,
    ]);
    expect(steps).toEqual([
      ["router", router.id, "running", null],
      ["router", router.id, "success", null],
      ["forward", personal.id, "running", null],
      [
        "forward",
        personal.id,
        "blocked",
        `forward to ${personal.id} blocked: the webhook belongs to another owner than this graph`,
      ],
    ]);
    expect(receiver.requests.filter((r) => r.path === "/member")).toEqual([]);
  });

  it("never runs a member's personal node stored on an organization webhook", async () => {
    const orgHook = await h.createWebhook({
      organizationId: org,
      targetUrl: `${receiver.url}/org2`,
    });
    const personal = await h.createWebhook({ targetUrl: `${receiver.url}/member2` });
    await createNode(h, "router", routeTo(personal.id), [fromWebhook(orgHook.id)]);
    const { id } = await h.createEvent(orgHook, { body: JSON.stringify({ type: "secret" }) });
    await h.waitForStatus(id, "delivered");
    expect(await childrenOf(h, id)).toEqual([]);
    expect(await recordedSteps(h, id)).toEqual([]);
    expect(receiver.requests.filter((r) => r.path === "/org2")).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.path === "/member2")).toEqual([]);
  });

  it("blocks a personal graph's forward into another user's personal webhook", async () => {
    const other = newId("user");
    await h.database.db
      .insert(users)
      .values({ id: other, email: `${other.toLowerCase()}@example.test`, passwordHash: "x" });
    const mine = await h.createWebhook({ targetUrl: `${receiver.url}/mine` });
    const theirs = await h.createWebhook({ ownerId: other, targetUrl: `${receiver.url}/theirs` });
    await createNode(h, "router", routeTo(theirs.id), [fromWebhook(mine.id)]);
    const { id } = await h.createEvent(mine, { body: JSON.stringify({ type: "x" }) });
    await h.waitForStatus(id, "filtered");
    expect(await childrenOf(h, id)).toEqual([]);
    const blocked = await blockedForwards([id]);
    expect(blocked.map((b) => b.node_id)).toEqual([theirs.id]);
  });
});
