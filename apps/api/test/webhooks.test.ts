import { deliveryAttempts, events } from "@hookflow/db";
import { newId } from "@hookflow/domain";
import { Redis } from "ioredis";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

type User = Awaited<ReturnType<typeof createUserWithSession>>;

describe("webhooks api", () => {
  let api: ApiHarness;
  let alice: User;
  let bob: User;

  beforeAll(async () => {
    api = await startApi();
    alice = await createUserWithSession(api.services.db.db);
    bob = await createUserWithSession(api.services.db.db);
  });
  afterAll(async () => {
    await api.close();
  });

  async function create(token: string, body: Record<string, unknown>, headers = {}) {
    const res = await api.call("POST", "/api/webhooks", { token, body, headers });
    if (res.status !== 201) throw new Error(`create failed: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** Subscribes to the invalidation channel and resolves with the next message. */
  async function nextWebhookChange(): Promise<{ message: Promise<unknown>; close: () => void }> {
    const subscriber = new Redis(api.services.config.redisUrl);
    await subscriber.subscribe(api.services.keys.webhookChangedChannel);
    const message = new Promise<unknown>((resolve) => {
      subscriber.once("message", (_channel: string, text: string) => resolve(JSON.parse(text)));
    });
    return { message, close: () => subscriber.disconnect() };
  }

  describe("happy paths", () => {
    it("creates a webhook with the defaults of both field sets", async () => {
      const res = await api.call("POST", "/api/webhooks", {
        token: alice.token,
        body: { name: "Orders", targetUrl: "https://example.com/hook" },
      });
      expect(res.status).toBe(201);
      const body = res.body;
      expect(body.id).toMatch(/^wh_/);
      expect(body._id).toBe(body.id);
      expect(body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(body.ingressToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      expect(body.ingressUrl).toBe(
        `${api.services.config.publicBaseUrl}/api/in/${body.ingressToken}`,
      );
      expect(body).toMatchObject({
        name: "Orders",
        description: "",
        targetUrl: "https://example.com/hook",
        isActive: true,
        ownerId: alice.userId,
        organizationId: null,
        healthStatus: "healthy",
        consecutiveFailures: 0,
        maxRetries: 3,
        retryDelaySeconds: 60,
        retryPolicy: { maxRetries: 3, backoffMultiplier: 2 },
        rateLimitPerMinute: 0,
        rateLimitPerSecond: 0,
        incomingSignatureType: "none",
        hasIncomingSignatureSecret: false,
        payloadFilters: [],
        degradedAfter: 2,
        downAfter: 4,
        circuitBreaker: { enabled: false, threshold: 5, cooldownSeconds: 60, state: "closed" },
        priority: 3,
        fallbackUrl: null,
        chaosConfig: { enabled: false, failureRate: 0, latencyMs: 0 },
        acceptsInternalCalls: false,
        responseMode: "none",
        deduplication: { enabled: false, windowSeconds: 3600 },
        chainWebhookIds: [],
      });
      expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
      expect(body.updatedAt).toBe(body.createdAt);
      expect(body).not.toHaveProperty("incomingSignatureSecret");
    });

    it("accepts field set A names", async () => {
      const body = await create(alice.token, {
        name: "Set A",
        targetUrl: "",
        description: "notification only",
        isActive: false,
        maxRetries: 7,
        retryDelaySeconds: 15,
        rateLimitPerMinute: 120,
        incomingSignatureType: "github",
        incomingSignatureSecret: "gh-secret-value",
        payloadFilters: [{ field: "action", operator: "eq", value: "opened" }],
        degradedAfter: 3,
        downAfter: 9,
        bogusField: "ignored",
      });
      expect(body).toMatchObject({
        targetUrl: "",
        description: "notification only",
        isActive: false,
        maxRetries: 7,
        retryPolicy: { maxRetries: 7, backoffMultiplier: 2 },
        retryDelaySeconds: 15,
        rateLimitPerMinute: 120,
        incomingSignatureType: "github",
        hasIncomingSignatureSecret: true,
        payloadFilters: [{ field: "action", operator: "eq", value: "opened" }],
        degradedAfter: 3,
        downAfter: 9,
      });
      expect(JSON.stringify(body)).not.toContain("gh-secret-value");
      expect(body).not.toHaveProperty("bogusField");
    });

    it("accepts field set B names, including an explicit signing secret", async () => {
      const body = await create(alice.token, {
        name: "Set B",
        targetUrl: "http://localhost:9/hook",
        signingSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        rateLimitPerSecond: 5,
        retryPolicy: { maxRetries: 6, backoffMultiplier: 3 },
        circuitBreaker: { enabled: true, threshold: 2 },
        priority: 1,
        fallbackUrl: "https://fallback.example.com/x",
        chaosConfig: { enabled: true, failureRate: 25, latencyMs: 100 },
        acceptsInternalCalls: true,
        responseMode: "sync",
        deduplication: { enabled: true, windowSeconds: 60 },
      });
      expect(body).toMatchObject({
        signingSecret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        rateLimitPerSecond: 5,
        maxRetries: 6,
        retryPolicy: { maxRetries: 6, backoffMultiplier: 3 },
        circuitBreaker: { enabled: true, threshold: 2, cooldownSeconds: 60, state: "closed" },
        priority: 1,
        fallbackUrl: "https://fallback.example.com/x",
        chaosConfig: { enabled: true, failureRate: 25, latencyMs: 100 },
        acceptsInternalCalls: true,
        responseMode: "sync",
        deduplication: { enabled: true, windowSeconds: 60 },
      });
    });

    it("gets a webhook by id", async () => {
      const created = await create(alice.token, { name: "Get me" });
      const res = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
    });

    it("pages the list and reports the total in X-Total-Count", async () => {
      const carol = await createUserWithSession(api.services.db.db);
      const names = ["one", "two", "three"];
      for (const name of names) await create(carol.token, { name });

      const first = await api.call("GET", "/api/webhooks?page=1&limit=2", { token: carol.token });
      expect(first.status).toBe(200);
      expect(first.headers.get("x-total-count")).toBe("3");
      expect(first.body.map((w: { name: string }) => w.name)).toEqual(["three", "two"]);

      const second = await api.call("GET", "/api/webhooks?page=2&limit=2", { token: carol.token });
      expect(second.body.map((w: { name: string }) => w.name)).toEqual(["one"]);
      expect(second.headers.get("x-total-count")).toBe("3");

      const all = await api.call("GET", "/api/webhooks", { token: carol.token });
      expect(all.body).toHaveLength(3);
      expect(all.body[0]).toHaveProperty("ingressUrl");

      const beyond = await api.call("GET", "/api/webhooks?page=3&limit=2", { token: carol.token });
      expect(beyond.body).toEqual([]);
    });

    it.each([
      ["page=0", "page"],
      ["page=abc", "page"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=2.5", "limit"],
    ])("rejects the list query %s naming %s", async (query, field) => {
      const res = await api.call("GET", `/api/webhooks?${query}`, { token: alice.token });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^${field}: `));
    });

    it("changes only the given fields on PATCH, merging nested objects and replacing filters", async () => {
      const created = await create(alice.token, {
        name: "Patch me",
        targetUrl: "https://example.com/a",
        circuitBreaker: { enabled: true, threshold: 7 },
        chaosConfig: { latencyMs: 50 },
        payloadFilters: [
          { field: "a", operator: "exists" },
          { field: "b", operator: "gt", value: 3 },
        ],
      });
      const res = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: {
          circuitBreaker: { cooldownSeconds: 30 },
          chaosConfig: { failureRate: 10 },
          payloadFilters: [{ field: "c", operator: "in", value: ["x", "y"] }],
          retryPolicy: { maxRetries: 9 },
        },
      });
      expect(res.status).toBe(200);
      const { updatedAt, ...rest } = res.body;
      const { updatedAt: before, ...createdRest } = created;
      expect(rest).toEqual({
        ...createdRest,
        circuitBreaker: { enabled: true, threshold: 7, cooldownSeconds: 30, state: "closed" },
        chaosConfig: { enabled: false, failureRate: 10, latencyMs: 50 },
        payloadFilters: [{ field: "c", operator: "in", value: '["x","y"]' }],
        maxRetries: 9,
        retryPolicy: { maxRetries: 9, backoffMultiplier: 2 },
      });
      expect(new Date(updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(before).getTime());

      const again = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(again.body).toEqual(res.body);
    });

    it("judges PATCH cross-field rules against the stored values", async () => {
      const created = await create(alice.token, { name: "Cross", degradedAfter: 3, downAfter: 6 });
      const down = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { downAfter: 3 },
      });
      expect(down.status).toBe(400);
      expect(down.body.message).toBe("downAfter: Must be greater than degradedAfter (3)");

      const degraded = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { degradedAfter: 6 },
      });
      expect(degraded.status).toBe(400);
      expect(degraded.body.message).toBe("degradedAfter: Must be less than downAfter (6)");

      const typeOnly = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { incomingSignatureType: "stripe" },
      });
      expect(typeOnly.status).toBe(400);
      expect(typeOnly.body.message).toMatch(/^incomingSignatureSecret: /);

      const secret = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { incomingSignatureSecret: "whsec_stripe" },
      });
      expect(secret.status).toBe(200);
      const typed = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { incomingSignatureType: "stripe" },
      });
      expect(typed.status).toBe(200);
      expect(typed.body).toMatchObject({
        incomingSignatureType: "stripe",
        hasIncomingSignatureSecret: true,
      });
      const unchanged = await api.call("GET", `/api/webhooks/${created.id}`, {
        token: alice.token,
      });
      expect(unchanged.body).toMatchObject({ degradedAfter: 3, downAfter: 6 });
    });

    it("toggles isActive and toggles it back", async () => {
      const created = await create(alice.token, { name: "Toggle" });
      const off = await api.call("POST", `/api/webhooks/${created.id}/toggle-active`, {
        token: alice.token,
      });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ isActive: false });
      const stored = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(stored.body.isActive).toBe(false);
      const on = await api.call("POST", `/api/webhooks/${created.id}/toggle-active`, {
        token: alice.token,
      });
      expect(on.body).toEqual({ isActive: true });
    });

    it("rotates the ingress token and publishes the change (never the token) for cache invalidation", async () => {
      const created = await create(alice.token, { name: "Rotate token" });
      const change = await nextWebhookChange();
      try {
        const res = await api.call("POST", `/api/webhooks/${created.id}/rotate-token`, {
          token: alice.token,
        });
        expect(res.status).toBe(200);
        expect(res.body.ingressToken).toMatch(/^[A-Za-z0-9_-]{32,}$/);
        expect(res.body.ingressToken).not.toBe(created.ingressToken);
        expect(await change.message).toEqual({ webhookId: created.id });
      } finally {
        change.close();
      }
      const stored = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(stored.body.ingressToken).not.toBe(created.ingressToken);
      expect(stored.body.ingressUrl).toMatch(/\/api\/in\/[A-Za-z0-9_-]{32,}$/);
    });

    it("publishes a change on update so caches reload the settings", async () => {
      const created = await create(alice.token, { name: "Publish on update" });
      const change = await nextWebhookChange();
      try {
        const res = await api.call("PATCH", `/api/webhooks/${created.id}`, {
          token: alice.token,
          body: { priority: 2 },
        });
        expect(res.status).toBe(200);
        expect(await change.message).toEqual({ webhookId: created.id });
      } finally {
        change.close();
      }
    });

    it("rotates the signing secret", async () => {
      const created = await create(alice.token, { name: "Rotate secret" });
      const res = await api.call("POST", `/api/webhooks/${created.id}/rotate-signing-secret`, {
        token: alice.token,
      });
      expect(res.status).toBe(200);
      expect(res.body.signingSecret).toMatch(/^whsec_/);
      expect(res.body.signingSecret).not.toBe(created.signingSecret);
      const stored = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(stored.body.signingSecret).toBe(res.body.signingSecret);
    });

    it("deletes a webhook with its events and attempts, then answers 404", async () => {
      const created = await create(alice.token, { name: "Delete me" });
      const db = api.services.db.db;
      const eventId = newId("event");
      await db.insert(events).values({ id: eventId, webhookId: created.id, body: "{}" });
      await db.insert(deliveryAttempts).values({
        id: newId("attempt"),
        eventId,
        webhookId: created.id,
        targetUrl: "https://example.com",
        attempt: 1,
        success: false,
        latencyMs: 1,
      });
      const change = await nextWebhookChange();
      try {
        const res = await api.call("DELETE", `/api/webhooks/${created.id}`, {
          token: alice.token,
        });
        expect(res.status).toBe(204);
        expect(res.body).toBeNull();
        expect(await change.message).toEqual({ webhookId: created.id });
      } finally {
        change.close();
      }
      const gone = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual({
        statusCode: 404,
        message: "Webhook not found",
        error: "Not Found",
      });
      const sql = api.services.db.sql;
      const [left] = await sql`
        select (select count(*)::int from events where webhook_id = ${created.id}) as events,
               (select count(*)::int from delivery_attempts where event_id = ${eventId}) as attempts`;
      expect(left).toEqual({ events: 0, attempts: 0 });
      const again = await api.call("DELETE", `/api/webhooks/${created.id}`, {
        token: alice.token,
      });
      expect(again.status).toBe(404);
    });
  });

  describe("validation", () => {
    const invalid: Array<[string, Record<string, unknown>]> = [
      ["name", { name: undefined }],
      ["name", { name: "" }],
      ["name", { name: "x".repeat(201) }],
      ["targetUrl", { targetUrl: "not a url" }],
      ["targetUrl", { targetUrl: "ftp://example.com/x" }],
      ["fallbackUrl", { fallbackUrl: "example.com/x" }],
      ["maxRetries", { maxRetries: 21 }],
      ["maxRetries", { maxRetries: -1 }],
      ["retryPolicy.maxRetries", { retryPolicy: { maxRetries: 21 } }],
      ["retryPolicy.maxRetries", { maxRetries: 2, retryPolicy: { maxRetries: 3 } }],
      ["retryPolicy.backoffMultiplier", { retryPolicy: { backoffMultiplier: 0 } }],
      ["retryDelaySeconds", { retryDelaySeconds: 9 }],
      ["priority", { priority: 0 }],
      ["priority", { priority: 6 }],
      ["chaosConfig.failureRate", { chaosConfig: { failureRate: 101 } }],
      ["chaosConfig.failureRate", { chaosConfig: { failureRate: -1 } }],
      ["chaosConfig.latencyMs", { chaosConfig: { latencyMs: 60_001 } }],
      ["degradedAfter", { degradedAfter: 0 }],
      ["downAfter", { degradedAfter: 4, downAfter: 4 }],
      ["incomingSignatureType", { incomingSignatureType: "hmac" }],
      ["incomingSignatureSecret", { incomingSignatureType: "custom" }],
      ["payloadFilters.0.operator", { payloadFilters: [{ field: "a", operator: "like" }] }],
      ["payloadFilters.0.value", { payloadFilters: [{ field: "a", operator: "eq" }] }],
      ["payloadFilters.0.field", { payloadFilters: [{ field: "", operator: "exists" }] }],
      ["circuitBreaker.threshold", { circuitBreaker: { threshold: 0 } }],
      ["circuitBreaker.cooldownSeconds", { circuitBreaker: { cooldownSeconds: 0 } }],
      ["rateLimitPerMinute", { rateLimitPerMinute: -1 }],
      ["rateLimitPerSecond", { rateLimitPerSecond: 1.5 }],
      ["responseMode", { responseMode: "async" }],
      ["deduplication.windowSeconds", { deduplication: { windowSeconds: 0 } }],
      ["signingSecret", { signingSecret: "secret_without_prefix" }],
      ["isActive", { isActive: "yes" }],
      ["acceptsInternalCalls", { acceptsInternalCalls: 1 }],
      ["chainWebhookIds", { chainWebhookIds: ["wh_does_not_exist"] }],
    ];

    it.each(invalid)("rejects an invalid %s on create with 400 naming it", async (field, body) => {
      const res = await api.call("POST", "/api/webhooks", {
        token: alice.token,
        body: { name: "valid", ...body },
      });
      expect(res.status).toBe(400);
      expect(res.body.statusCode).toBe(400);
      expect(res.body.error).toBe("Bad Request");
      expect(res.body.message.startsWith(`${field}: `)).toBe(true);
    });

    // A missing name is fine on PATCH, and signingSecret is create-only (ignored on PATCH).
    const invalidPatches = invalid.filter(
      ([field, body]) => field !== "signingSecret" && !("name" in body && body.name === undefined),
    );

    it.each(invalidPatches)(
      "rejects an invalid %s on PATCH with 400 naming it",
      async (field, body) => {
        const created = await create(alice.token, { name: "patch target" });
        const res = await api.call("PATCH", `/api/webhooks/${created.id}`, {
          token: alice.token,
          body,
        });
        expect(res.status).toBe(400);
        expect(res.body.message.startsWith(`${field}: `)).toBe(true);
      },
    );

    it("answers malformed JSON with 400 in the error shape", async () => {
      const res = await api.call("POST", "/api/webhooks", {
        token: alice.token,
        rawBody: '{"name": "broken",',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        message: "Malformed JSON in request body",
        error: "Bad Request",
      });
    });

    it("checks chain targets: visible, not itself, no loop", async () => {
      const a = await create(alice.token, { name: "chain a" });
      const b = await create(alice.token, { name: "chain b", chainWebhookIds: [a.id] });
      expect(b.chainWebhookIds).toEqual([a.id]);

      const self = await api.call("PATCH", `/api/webhooks/${a.id}`, {
        token: alice.token,
        body: { chainWebhookIds: [a.id] },
      });
      expect(self.status).toBe(400);
      expect(self.body.message).toMatch(/^chainWebhookIds: /);

      const loop = await api.call("PATCH", `/api/webhooks/${a.id}`, {
        token: alice.token,
        body: { chainWebhookIds: [b.id] },
      });
      expect(loop.status).toBe(400);
      expect(loop.body.message).toBe("chainWebhookIds: The chain would loop back to this webhook");

      const foreign = await create(bob.token, { name: "bob's" });
      const other = await api.call("PATCH", `/api/webhooks/${a.id}`, {
        token: alice.token,
        body: { chainWebhookIds: [foreign.id] },
      });
      expect(other.status).toBe(400);
      expect(other.body.message).toBe(`chainWebhookIds: Unknown webhook ${foreign.id}`);

      const c = await create(alice.token, { name: "chain c" });
      const ok = await api.call("PATCH", `/api/webhooks/${a.id}`, {
        token: alice.token,
        body: { chainWebhookIds: [c.id] },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.chainWebhookIds).toEqual([c.id]);
    });
  });

  describe("security", () => {
    it("stores the token and both secrets sealed, through create, rotations and PATCH", async () => {
      const rawRow = async (id: string) => {
        const [row] = await api.database.sql`select * from webhooks where id = ${id}`;
        return row ?? {};
      };
      const inClear = new Set<string>();
      const created = await create(alice.token, {
        name: "Sealed",
        signingSecret: "whsec_chosen-by-the-owner",
        incomingSignatureType: "stripe",
        incomingSignatureSecret: "incoming-chosen-by-the-owner",
      });
      expect(created.signingSecret).toBe("whsec_chosen-by-the-owner");
      inClear.add(created.ingressToken).add(created.signingSecret);
      inClear.add("incoming-chosen-by-the-owner");

      const token = await api.call("POST", `/api/webhooks/${created.id}/rotate-token`, {
        token: alice.token,
      });
      const secret = await api.call("POST", `/api/webhooks/${created.id}/rotate-signing-secret`, {
        token: alice.token,
      });
      const patched = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { incomingSignatureSecret: "incoming-patched", name: "Sealed still" },
      });
      expect(patched.status).toBe(200);
      inClear.add(token.body.ingressToken).add(secret.body.signingSecret).add("incoming-patched");

      const row = await rawRow(created.id);
      const stored = JSON.stringify(row);
      for (const value of inClear) expect(stored).not.toContain(value);
      for (const column of ["ingress_token", "signing_secret", "incoming_signature_secret"]) {
        expect([column, row[column]]).toEqual([column, expect.stringMatching(/^enc:v1:/)]);
      }
      expect(row.token_hash).toBe(api.services.keyRing.lookupHash(token.body.ingressToken));
      // The owner still reads them in clear, and a PATCH that leaves the secret alone keeps it.
      const read = await api.call("GET", `/api/webhooks/${created.id}`, { token: alice.token });
      expect(read.body).toMatchObject({
        ingressToken: token.body.ingressToken,
        ingressUrl: expect.stringMatching(new RegExp(`/api/in/${token.body.ingressToken}$`)),
        signingSecret: secret.body.signingSecret,
        hasIncomingSignatureSecret: true,
      });
      await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: alice.token,
        body: { description: "touch" },
      });
      expect((await rawRow(created.id)).incoming_signature_secret).toBe(
        row.incoming_signature_secret,
      );
    });

    it("answers 403 to another user on every webhook route, and 404 for an unknown id", async () => {
      const created = await create(alice.token, { name: "Alice only" });
      const id = created.id;
      const attempts: Array<[string, string, unknown]> = [
        ["GET", `/api/webhooks/${id}`, undefined],
        ["PATCH", `/api/webhooks/${id}`, { name: "stolen" }],
        ["DELETE", `/api/webhooks/${id}`, undefined],
        ["POST", `/api/webhooks/${id}/toggle-active`, undefined],
        ["POST", `/api/webhooks/${id}/rotate-token`, undefined],
        ["POST", `/api/webhooks/${id}/rotate-signing-secret`, undefined],
      ];
      for (const [method, path, body] of attempts) {
        const res = await api.call(method, path, { token: bob.token, body });
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.error).toBe("Forbidden");
        const missing = await api.call(method, path.replace(id, "wh_missing"), {
          token: bob.token,
          body,
        });
        expect([method, path, missing.status]).toEqual([method, path, 404]);
      }
      const intact = await api.call("GET", `/api/webhooks/${id}`, { token: alice.token });
      expect(intact.body).toEqual(created);
      const bobsList = await api.call("GET", "/api/webhooks", { token: bob.token });
      expect(bobsList.body.map((w: { id: string }) => w.id)).not.toContain(id);
    });

    it("refuses create to a key without webhooks:write, even with an invalid body", async () => {
      const key = await createApiKeyFor(api.services.db.db, alice.userId, {
        scopes: ["webhooks:read"],
      });
      const res = await api.call("POST", "/api/webhooks", {
        token: key.key,
        body: { name: "nope" },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("This API key lacks the webhooks:write scope");
      const invalid = await api.call("POST", "/api/webhooks", { token: key.key, body: {} });
      expect(invalid.status).toBe(403);
    });

    it("lets a key with only webhooks:read list and get but not change", async () => {
      const created = await create(alice.token, { name: "Readable" });
      const key = await createApiKeyFor(api.services.db.db, alice.userId, {
        scopes: ["webhooks:read"],
      });
      const list = await api.call("GET", "/api/webhooks", { token: key.key });
      expect(list.status).toBe(200);
      expect(list.body.map((w: { id: string }) => w.id)).toContain(created.id);
      const get = await api.call("GET", `/api/webhooks/${created.id}`, { token: key.key });
      expect(get.status).toBe(200);
      const patch = await api.call("PATCH", `/api/webhooks/${created.id}`, {
        token: key.key,
        body: { name: "x" },
      });
      expect(patch.status).toBe(403);
      const toggle = await api.call("POST", `/api/webhooks/${created.id}/toggle-active`, {
        token: key.key,
      });
      expect(toggle.status).toBe(403);
    });

    it("refuses a key with only webhooks:write to read", async () => {
      const key = await createApiKeyFor(api.services.db.db, alice.userId, {
        scopes: ["webhooks:write"],
      });
      const list = await api.call("GET", "/api/webhooks", { token: key.key });
      expect(list.status).toBe(403);
      const created = await api.call("POST", "/api/webhooks", {
        token: key.key,
        body: { name: "by key" },
      });
      expect(created.status).toBe(201);
    });

    it.each([
      ["GET", "/api/webhooks"],
      ["POST", "/api/webhooks"],
      ["GET", "/api/webhooks/wh_x"],
      ["PATCH", "/api/webhooks/wh_x"],
      ["DELETE", "/api/webhooks/wh_x"],
      ["POST", "/api/webhooks/wh_x/rotate-token"],
    ])("answers %s %s without a credential with 401", async (method, path) => {
      const res = await api.call(method, path, { body: method === "GET" ? undefined : {} });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Unauthorized");
    });

    it("shows an organization's webhook to its members and 403 to others", async () => {
      const dave = await createUserWithSession(api.services.db.db);
      const orgId = await createOrganizationWith(api.services.db.db, [
        { userId: alice.userId, role: "owner" },
        { userId: bob.userId, role: "member" },
      ]);
      const orgHook = await create(
        alice.token,
        { name: "Org hook" },
        { "x-organization-id": orgId },
      );
      expect(orgHook.organizationId).toBe(orgId);
      expect(orgHook.ownerId).toBe(alice.userId);

      const bobGet = await api.call("GET", `/api/webhooks/${orgHook.id}`, { token: bob.token });
      expect(bobGet.status).toBe(200);
      const bobPatch = await api.call("PATCH", `/api/webhooks/${orgHook.id}`, {
        token: bob.token,
        body: { description: "edited by a member" },
      });
      expect(bobPatch.status).toBe(200);

      const orgList = await api.call("GET", "/api/webhooks", {
        token: bob.token,
        headers: { "x-organization-id": orgId },
      });
      expect(orgList.body.map((w: { id: string }) => w.id)).toEqual([orgHook.id]);
      expect(orgList.headers.get("x-total-count")).toBe("1");
      const personal = await api.call("GET", "/api/webhooks", { token: alice.token });
      expect(personal.body.map((w: { id: string }) => w.id)).not.toContain(orgHook.id);

      const orgKey = await createApiKeyFor(api.services.db.db, alice.userId, {
        scopes: ["webhooks:read"],
        organizationId: orgId,
      });
      const keyList = await api.call("GET", "/api/webhooks", { token: orgKey.key });
      expect(keyList.body.map((w: { id: string }) => w.id)).toEqual([orgHook.id]);

      const daveGet = await api.call("GET", `/api/webhooks/${orgHook.id}`, { token: dave.token });
      expect(daveGet.status).toBe(403);
      const daveDelete = await api.call("DELETE", `/api/webhooks/${orgHook.id}`, {
        token: dave.token,
      });
      expect(daveDelete.status).toBe(403);
    });
  });
});
