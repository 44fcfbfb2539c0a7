import { parkAtGate, parkRow, resumeJobState } from "./approvals-fixtures.js";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";
import { createNode, insertWebhookRow, webhookInput } from "./nodes-fixtures.js";

type Db = ApiHarness["database"]["db"];

const DECIDED = { approve: "approved", reject: "rejected" } as const;

describe("approval gates api", () => {
  let api: ApiHarness;
  let db: Db;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  let webhookId: string;
  let gate: string;
  let otherGate: string;

  beforeAll(async () => {
    api = await startApi();
    db = api.database.db;
    alice = await createUserWithSession(db);
    bob = await createUserWithSession(db);
    webhookId = await insertWebhookRow(db, alice.userId, { priority: 2, name: "Shop" });
    const input = { inputNodes: [webhookInput(webhookId)], timeoutMinutes: 60 };
    gate = (await createNode(api, alice.token, "approval-nodes", { name: "Gate", ...input })).id;
    otherGate = (await createNode(api, alice.token, "approval-nodes", { name: "Other", ...input }))
      .id;
  });
  afterAll(async () => {
    await api.close();
  });

  const decide = (action: "approve" | "reject", eventId: string, token = alice.token) =>
    api.call("POST", `/api/approval-nodes/${gate}/${action}`, { token, body: { eventId } });

  describe("GET /api/approval-nodes/:id/pending", () => {
    it("lists the events waiting at the gate, oldest first, with a payload preview", async () => {
      const listed = await createNode(api, alice.token, "approval-nodes", { name: "Listed" });
      const early = new Date(Date.now() - 60_000);
      const second = await parkAtGate(api, { webhookId, nodeId: listed.id, payload: { n: 2 } });
      const first = await parkAtGate(api, {
        webhookId,
        nodeId: listed.id,
        payload: { n: 1 },
        createdAt: early,
      });
      const big = await parkAtGate(api, {
        webhookId,
        nodeId: listed.id,
        payload: { text: "x".repeat(3000) },
      });
      // Not listed: decided already, at another gate, or left from an earlier run (replayed).
      const decided = await parkAtGate(api, { webhookId, nodeId: listed.id });
      await api.call("POST", `/api/approval-nodes/${listed.id}/approve`, {
        token: alice.token,
        body: { eventId: decided.eventId },
      });
      await parkAtGate(api, { webhookId, nodeId: otherGate });
      await parkAtGate(api, { webhookId, nodeId: listed.id, parkRun: "old", eventRun: "new" });

      const res = await api.call("GET", `/api/approval-nodes/${listed.id}/pending`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-total-count")).toBe("3");
      expect(res.body.map((item: { eventId: string }) => item.eventId)).toEqual([
        first.eventId,
        second.eventId,
        big.eventId,
      ]);
      expect(res.body[0]).toEqual({
        eventId: first.eventId,
        webhookId,
        parkId: first.parkId,
        createdAt: early.toISOString(),
        timeoutAt: expect.any(String),
        payloadPreview: '{"n":1}',
        payloadTruncated: false,
      });
      expect(res.body[2].payloadPreview).toHaveLength(1000);
      expect(res.body[2].payloadTruncated).toBe(true);

      const page2 = await api.call(
        "GET",
        `/api/approval-nodes/${listed.id}/pending?page=2&limit=2`,
        {
          token: alice.token,
        },
      );
      expect(page2.body.map((item: { eventId: string }) => item.eventId)).toEqual([big.eventId]);
      expect(page2.headers.get("x-total-count")).toBe("3");
    });

    it("answers 400 to a limit above 100", async () => {
      const res = await api.call("GET", `/api/approval-nodes/${gate}/pending?limit=101`, {
        token: alice.token,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/limit/);
    });
  });

  describe("POST /api/approval-nodes/:id/approve|reject", () => {
    it("approves a waiting event, records who decided and promotes its timeout job", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      expect(await resumeJobState(api, park)).toBe("delayed");

      const res = await decide("approve", park.eventId);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        eventId: park.eventId,
        decision: "approved",
        decidedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const row = await parkRow(db, park.parkId);
      expect(row).toMatchObject({ status: "approved", decidedBy: alice.userId });
      expect(row.decidedAt?.toISOString()).toBe(res.body.decidedAt);
      expect(await resumeJobState(api, park)).toBe("waiting");
    });

    it("rejects a waiting event and resumes it at once", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      const res = await decide("reject", park.eventId);
      expect(res.status).toBe(200);
      expect(res.body.decision).toBe("rejected");
      expect((await parkRow(db, park.parkId)).status).toBe("rejected");
      expect(await resumeJobState(api, park)).toBe("waiting");
    });

    it("adds a resume job when the park has none (Redis lost it)", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate, withTimeoutJob: false });
      expect(await resumeJobState(api, park)).toBe("unknown");
      expect((await decide("approve", park.eventId)).status).toBe(200);
      expect(await resumeJobState(api, park)).toBe("waiting");
    });

    it.each([
      ["approve", "approve"],
      ["approve", "reject"],
      ["reject", "approve"],
    ] as const)("answers 404 to %s after %s: a gate decides once", async (second, first) => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      expect((await decide(first, park.eventId)).status).toBe(200);
      const res = await decide(second, park.eventId);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        message: "Event is not waiting at this approval node",
        error: "Not Found",
      });
      expect((await parkRow(db, park.parkId)).status).toBe(DECIDED[first]);
    });

    it("decides once when two approvals race", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      const answers = await Promise.all([
        decide("approve", park.eventId),
        decide("reject", park.eventId),
        decide("approve", park.eventId),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404, 404]);
      const winner = answers.find((a) => a.status === 200);
      expect((await parkRow(db, park.parkId)).status).toBe(winner?.body.decision);
    });

    it.each([
      ["an event waiting at another gate", "other"],
      ["an unknown event", "unknown"],
      ["an event whose park belongs to an earlier run", "stale"],
    ])("answers 404 for %s", async (_label, kind) => {
      let eventId = "evt_unknown";
      if (kind === "other") {
        eventId = (await parkAtGate(api, { webhookId, nodeId: otherGate })).eventId;
      } else if (kind === "stale") {
        const stale = await parkAtGate(api, {
          webhookId,
          nodeId: gate,
          parkRun: "a",
          eventRun: "b",
        });
        eventId = stale.eventId;
      }
      expect((await decide("approve", eventId)).status).toBe(404);
    });

    it("answers 400 without an eventId", async () => {
      const res = await api.call("POST", `/api/approval-nodes/${gate}/approve`, {
        token: alice.token,
        body: {},
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/eventId/);
    });
  });

  describe("access", () => {
    it.each([
      ["GET", "pending"],
      ["GET", "outbox"],
      ["POST", "approve"],
      ["POST", "reject"],
    ])("answers 404 to %s %s of an unknown or non-approval node", async (method, sub) => {
      const delay = await createNode(api, alice.token, "delay-nodes", {
        name: "d",
        delaySeconds: 10,
      });
      for (const id of ["apr_missing", delay.id]) {
        const res = await api.call(method, `/api/approval-nodes/${id}/${sub}`, {
          token: alice.token,
          ...(method === "POST" ? { body: { eventId: "evt_x" } } : {}),
        });
        expect([id, res.status]).toEqual([id, 404]);
      }
    });

    it("answers 403 to another owner and leaves the event waiting", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      for (const [method, sub] of [
        ["GET", "pending"],
        ["GET", "outbox"],
        ["POST", "approve"],
        ["POST", "reject"],
      ] as const) {
        const res = await api.call(method, `/api/approval-nodes/${gate}/${sub}`, {
          token: bob.token,
          ...(method === "POST" ? { body: { eventId: park.eventId } } : {}),
        });
        expect([sub, res.status]).toEqual([sub, 403]);
      }
      expect((await parkRow(db, park.parkId)).status).toBe("waiting");
    });

    it.each([
      ["POST", "approve", ["canvas:read", "canvas:write", "events:read"]],
      ["POST", "reject", ["canvas:read", "events:read"]],
      ["GET", "pending", ["events:read", "events:write"]],
      ["GET", "outbox", ["events:write"]],
    ] as const)(
      "answers 403 to %s %s with a key lacking its scope",
      async (method, sub, scopes) => {
        const park = await parkAtGate(api, { webhookId, nodeId: gate });
        const { key } = await createApiKeyFor(db, alice.userId, { scopes: [...scopes] });
        const res = await api.call(method, `/api/approval-nodes/${gate}/${sub}`, {
          token: key,
          ...(method === "POST" ? { body: { eventId: park.eventId } } : {}),
        });
        expect(res.status).toBe(403);
        expect(res.body.message).toMatch(/scope/);
        expect((await parkRow(db, park.parkId)).status).toBe("waiting");
      },
    );

    it("lets a key with events:write decide", async () => {
      const park = await parkAtGate(api, { webhookId, nodeId: gate });
      const { key } = await createApiKeyFor(db, alice.userId, { scopes: ["events:write"] });
      expect((await decide("approve", park.eventId, key)).status).toBe(200);
    });

    it("answers 401 without a credential", async () => {
      const res = await api.call("GET", `/api/approval-nodes/${gate}/pending`);
      expect(res.status).toBe(401);
    });
  });

  it("documents the approval routes in the OpenAPI document", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    for (const [path, method] of [
      ["/api/approval-nodes/{id}/pending", "get"],
      ["/api/approval-nodes/{id}/approve", "post"],
      ["/api/approval-nodes/{id}/reject", "post"],
      ["/api/approval-nodes/{id}/outbox", "get"],
    ] as const) {
      expect([path, body.paths[path]?.[method]?.security]).toEqual([path, [{ bearerAuth: [] }]]);
    }
    expect(body.paths["/api/approvals/{token}"].get.security).toEqual([]);
    expect(body.paths["/api/approvals/{token}"].post.security).toEqual([]);
    expect(body.components.schemas.ApprovalDecision.properties.decision.enum).toEqual([
      "approved",
      "rejected",
    ]);
  });
});
