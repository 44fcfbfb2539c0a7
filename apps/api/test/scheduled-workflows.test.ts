import { scheduledWorkflowRuns } from "@hookflow/db";
import { createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertNodeRow, insertWebhookRow } from "./nodes-fixtures.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

/**
 * The scheduled-workflows family at the api: validation (croner, IANA zones, url xor webhookId),
 * references to webhooks of the workflow's own scope, the job scheduler kept in step with every
 * write, and the runs route.
 */
describe("scheduled workflows", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;
  let aliceHook: string;
  let bobHook: string;

  beforeAll(async () => {
    api = await startApi();
    const db = api.services.db.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    aliceHook = await insertWebhookRow(db, alice.userId);
    bobHook = await insertWebhookRow(db, bob.userId);
  });
  afterAll(async () => {
    await api.close();
  });

  const scheduler = (id: string) => api.services.schedules.getJobScheduler(id);
  const post = (token: string, body: Record<string, unknown>, headers = {}) =>
    api.call("POST", "/api/scheduled-workflows", { token, body, headers });

  describe("validation", () => {
    it.each([
      [{ cronExpression: "* * * *" }, "cronExpression: must have 5 fields"],
      [{ cronExpression: "* * * * * * *" }, "cronExpression: must have 5 fields"],
      [{ cronExpression: "61 * * * *" }, "cronExpression: Invalid value for minute"],
      [{ cronExpression: "0 0 30 2 *" }, "cronExpression: never fires"],
      [{ timezone: "Mars/Olympus_Mons" }, "timezone: Unknown time zone"],
      [{ timezone: "+01:00" }, "timezone: Unknown time zone"],
      [{ url: "ftp://example.test/x" }, "url: Invalid URL"],
      [{ url: undefined }, "url: exactly one of url"],
      [{ webhookId: "wh_x" }, "url: exactly one of url"],
      [{ method: "TRACE" }, "method: "],
      [{ headers: { Host: "evil.test" } }, "headers.Host: set by the HTTP client"],
      [{ headers: { "X-Ok": "a\r\nInjected: 1" } }, "headers.X-Ok: a header value is one line"],
      [{ body: "x".repeat(64 * 1024 + 1) }, "body: "],
      [
        { inputNodes: [{ nodeType: "webhook", nodeId: "wh_x" }] },
        "inputNodes: a scheduledWorkflow",
      ],
    ])("refuses a bad field with a 400 naming it (%#)", async (change, message) => {
      const body = {
        name: "nightly",
        cronExpression: "0 3 * * *",
        url: "https://example.test/cron",
        ...change,
      };
      const res = await post(alice.token, body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    });

    it("accepts 5 and 6 fields, applies the defaults and sets a scheduler", async () => {
      const five = await createNode(api, alice.token, "scheduled-workflows", {
        name: "nightly",
        cronExpression: "0 3 * * *",
        url: "https://example.test/cron",
      });
      expect(five).toMatchObject({
        id: expect.stringMatching(/^swf_/),
        timezone: "UTC",
        method: "POST",
        headers: {},
        isActive: true,
        inputNodes: [],
      });
      expect(await scheduler(five.id)).toMatchObject({ pattern: "0 3 * * *", tz: "UTC" });
      const six = await createNode(api, alice.token, "scheduled-workflows", {
        name: "every 10 s in Tokyo",
        cronExpression: "*/10 * * * * *",
        timezone: "Asia/Tokyo",
        webhookId: aliceHook,
      });
      expect(await scheduler(six.id)).toMatchObject({
        pattern: "*/10 * * * * *",
        tz: "Asia/Tokyo",
      });
    });
  });

  describe("the scheduler follows every write", () => {
    it("changes with the expression, goes on pause and comes back, and goes with the delete", async () => {
      const created = await createNode(api, alice.token, "scheduled-workflows", {
        name: "hourly",
        cronExpression: "0 * * * *",
        url: "https://example.test/hourly",
      });
      const path = `/api/scheduled-workflows/${created.id}`;
      const edit = (body: Record<string, unknown>) =>
        api.call("PATCH", path, { token: alice.token, body });

      expect((await edit({ cronExpression: "30 * * * *", timezone: "Europe/Paris" })).status).toBe(
        200,
      );
      expect(await scheduler(created.id)).toMatchObject({
        pattern: "30 * * * *",
        tz: "Europe/Paris",
      });

      expect((await edit({ isActive: false })).status).toBe(200);
      expect(await scheduler(created.id)).toBeUndefined();
      expect((await edit({ isActive: true })).status).toBe(200);
      expect(await scheduler(created.id)).toMatchObject({ pattern: "30 * * * *" });

      // Switching mode: null clears the url.
      const switched = await edit({ url: null, webhookId: aliceHook });
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({ url: null, webhookId: aliceHook });
      expect((await edit({ cronExpression: "nope" })).status).toBe(400);

      expect((await api.call("DELETE", path, { token: alice.token })).status).toBe(204);
      expect(await scheduler(created.id)).toBeUndefined();
    });
  });

  describe("as a node's input", () => {
    it("feeds nodes in webhook mode only, and keeps its webhook while it feeds them", async () => {
      const caller = await createNode(api, alice.token, "scheduled-workflows", {
        name: "calls a url",
        cronExpression: "* * * * *",
        url: "https://example.test/u",
      });
      const fromUrl = await api.call("POST", "/api/filter-nodes", {
        token: alice.token,
        body: {
          name: "after url",
          inputNodes: [{ nodeType: "scheduledWorkflow", nodeId: caller.id }],
          filters: [{ field: "a", operator: "exists" }],
        },
      });
      expect(fromUrl.status).toBe(400);
      expect(fromUrl.body.message).toContain(
        `inputNodes.0.nodeId: scheduled workflow ${caller.id} calls a url`,
      );

      const feeder = await createNode(api, alice.token, "scheduled-workflows", {
        name: "feeds",
        cronExpression: "* * * * *",
        webhookId: aliceHook,
      });
      const fed = await createNode(api, alice.token, "filter-nodes", {
        name: "after tick",
        inputNodes: [{ nodeType: "scheduled-workflows", nodeId: feeder.id }],
        filters: [{ field: "a", operator: "exists" }],
      });
      expect(fed.inputNodes).toEqual([{ nodeType: "scheduledWorkflow", nodeId: feeder.id }]);
      const toUrl = await api.call("PATCH", `/api/scheduled-workflows/${feeder.id}`, {
        token: alice.token,
        body: { webhookId: null, url: "https://example.test/u" },
      });
      expect(toUrl.status).toBe(409);
      expect(toUrl.body.message).toContain(fed.id);
      // Deleting the workflow takes it out of the node's inputs.
      const path = `/api/scheduled-workflows/${feeder.id}`;
      expect((await api.call("DELETE", path, { token: alice.token })).status).toBe(204);
      const after = await api.call("GET", `/api/filter-nodes/${fed.id}`, { token: alice.token });
      expect(after.body.inputNodes).toEqual([]);
    });
  });

  describe("tenancy", () => {
    it("refuses another owner's webhook as if it did not exist", async () => {
      const res = await post(alice.token, {
        name: "steal",
        cronExpression: "* * * * *",
        webhookId: bobHook,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`webhookId: Unknown webhook ${bobHook}`);
    });

    it("refuses a webhook of another scope the caller can see", async () => {
      const org = await createOrganizationWith(api.services.db.db, [
        { userId: alice.userId, role: "owner" },
      ]);
      const res = await post(
        alice.token,
        { name: "org tick", cronExpression: "* * * * *", webhookId: aliceHook },
        { "x-organization-id": org },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^webhookId: webhook .* belongs to the personal space/);
    });

    it("keeps a workflow's webhook from being deleted under it (409)", async () => {
      const hook = await insertWebhookRow(api.services.db.db, alice.userId);
      const workflow = await createNode(api, alice.token, "scheduled-workflows", {
        name: "feeds",
        cronExpression: "* * * * *",
        webhookId: hook,
      });
      const res = await api.call("DELETE", `/api/webhooks/${hook}`, { token: alice.token });
      expect(res.status).toBe(409);
      expect(res.body.message).toContain(workflow.id);
    });

    it("caps the workflows of one scope (409 past the cap)", async () => {
      const carol = await createUserWithSession(api.services.db.db);
      for (let i = 0; i < 99; i += 1) {
        await insertNodeRow(api.services.db.db, { ownerId: carol.userId }, "scheduledWorkflow", {
          cronExpression: "0 0 * * *",
          url: "https://example.test/n",
          isActive: false,
        });
      }
      const body = { name: "100th", cronExpression: "0 0 * * *", url: "https://example.test/n" };
      expect((await post(carol.token, body)).status).toBe(201);
      const over = await post(carol.token, { ...body, name: "101st" });
      expect(over.status).toBe(409);
      expect(over.body.message).toContain("at most 100 scheduled workflows");
    });

    it("shows runs to the owner only, latest tick first", async () => {
      const workflow = await createNode(api, alice.token, "scheduled-workflows", {
        name: "reported",
        cronExpression: "* * * * *",
        url: "https://example.test/r",
      });
      const at = (iso: string) => new Date(iso);
      await api.services.db.db.insert(scheduledWorkflowRuns).values([
        {
          id: "swr_a",
          workflowId: workflow.id,
          scheduledFor: at("2026-01-01T00:00:00Z"),
          status: "succeeded",
          mode: "url",
          statusCode: 200,
          responseBody: "ok",
          startedAt: at("2026-01-01T00:00:00.010Z"),
          finishedAt: at("2026-01-01T00:00:00.050Z"),
        },
        {
          id: "swr_b",
          workflowId: workflow.id,
          scheduledFor: at("2026-01-01T00:01:00Z"),
          status: "failed",
          mode: "url",
          attempts: 3,
          error: "timeout",
          startedAt: at("2026-01-01T00:01:00.010Z"),
          finishedAt: at("2026-01-01T00:01:09Z"),
        },
      ]);
      const path = `/api/scheduled-workflows/${workflow.id}/runs`;
      const res = await api.call("GET", `${path}?limit=1`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total-count")).toBe("2");
      expect(res.body).toEqual([
        {
          id: "swr_b",
          workflowId: workflow.id,
          scheduledFor: "2026-01-01T00:01:00.000Z",
          status: "failed",
          mode: "url",
          attempts: 3,
          statusCode: null,
          responseBody: null,
          error: "timeout",
          eventId: null,
          startedAt: "2026-01-01T00:01:00.010Z",
          finishedAt: "2026-01-01T00:01:09.000Z",
        },
      ]);
      expect((await api.call("GET", path, { token: bob.token })).status).toBe(403);
      const missing = await api.call("GET", "/api/scheduled-workflows/swf_nope/runs", {
        token: alice.token,
      });
      expect(missing.status).toBe(404);
    });
  });
});
