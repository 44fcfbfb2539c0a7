import { hashToken } from "@hookflow/domain";
import { requireScope } from "@hookflow/services";
import { createApiKeyFor, createOrganizationWith, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

const FUTURE = new Date(Date.now() + 30 * 24 * 3600_000).toISOString();

describe("api keys", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
    // A probe behind the real auth chain that needs one scope, standing in for any resource route.
    api.app.get("/api/probe/events", (c) => {
      const actor = c.get("actor");
      requireScope(actor, "events:read");
      return c.json({ userId: actor.userId, organizationId: actor.organizationId });
    });
  });
  afterAll(async () => {
    await api.close();
  });

  const user = () => createUserWithSession(api.database.db);
  const createKey = (token: string, body: Record<string, unknown>) =>
    api.call("POST", "/api/api-keys", { token, body });

  describe("create", () => {
    it("returns the key once, stores only its hash, and the key authenticates", async () => {
      const alice = await user();
      const res = await createKey(alice.token, {
        name: "ci",
        scopes: ["events:read", "webhooks:write", "events:read"],
        allowedOrigins: ["https://app.example.com/"],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^key_/),
        _id: res.body.id,
        name: "ci",
        key: expect.stringMatching(/^hf_live_[A-Za-z0-9_-]{40}$/),
        prefix: res.body.key.slice(0, 12),
        scopes: ["events:read", "webhooks:write"],
        allowedOrigins: ["https://app.example.com"],
        organizationId: null,
        ownerId: alice.userId,
        expiresAt: null,
        lastUsedAt: null,
        createdAt: expect.any(String),
      });
      const rows = await api.database.sql`select * from api_keys where id = ${res.body.id}`;
      expect(rows[0]?.key_hash).toBe(hashToken(res.body.key));
      expect(JSON.stringify(rows[0])).not.toContain(res.body.key);

      const probe = await api.call("GET", "/api/probe/events", { token: res.body.key });
      expect(probe.status).toBe(200);
      expect(probe.body).toEqual({ userId: alice.userId, organizationId: null });
    });

    it("creates a key for an organization the user belongs to, which acts for it", async () => {
      const alice = await user();
      const org = await createOrganizationWith(api.database.db, [
        { userId: alice.userId, role: "member" },
      ]);
      const res = await createKey(alice.token, {
        name: "org key",
        scopes: ["events:read"],
        organizationId: org,
        expiresAt: FUTURE,
      });
      expect(res.status).toBe(201);
      expect(res.body.organizationId).toBe(org);
      expect(res.body.expiresAt).toBe(FUTURE);
      const probe = await api.call("GET", "/api/probe/events", { token: res.body.key });
      expect(probe.body).toEqual({ userId: alice.userId, organizationId: org });
    });

    it("refuses an organization the user does not belong to with 403", async () => {
      const alice = await user();
      const bob = await user();
      const bobsOrg = await createOrganizationWith(api.database.db, [
        { userId: bob.userId, role: "owner" },
      ]);
      for (const organizationId of [bobsOrg, "org_unknown"]) {
        const res = await createKey(alice.token, {
          name: "sneaky",
          scopes: ["events:read"],
          organizationId,
        });
        expect(res.status).toBe(403);
      }
      const rows = await api.database.sql`select id from api_keys where owner_id = ${alice.userId}`;
      expect(rows).toHaveLength(0);
    });

    it.each([
      ["name", { scopes: ["events:read"] }],
      ["scopes", { name: "k" }],
      ["scopes", { name: "k", scopes: [] }],
      ["scopes.0", { name: "k", scopes: ["everything"] }],
      ["allowedOrigins.0", { name: "k", scopes: ["events:read"], allowedOrigins: ["app.com"] }],
      [
        "allowedOrigins.0",
        { name: "k", scopes: ["events:read"], allowedOrigins: ["https://app.com/path"] },
      ],
      ["expiresAt", { name: "k", scopes: ["events:read"], expiresAt: "tomorrow" }],
      ["expiresAt", { name: "k", scopes: ["events:read"], expiresAt: "2001-01-01T00:00:00Z" }],
    ])("answers 400 naming %s when it is invalid", async (field, body) => {
      const alice = await user();
      const res = await createKey(alice.token, body);
      expect(res.status).toBe(400);
      expect(res.body.message.startsWith(`${field}: `)).toBe(true);
    });
  });

  describe("list", () => {
    it("lists only the caller's active keys, with prefixes and never the values", async () => {
      const alice = await user();
      const bob = await user();
      const first = await createKey(alice.token, { name: "one", scopes: ["events:read"] });
      const second = await createKey(alice.token, { name: "two", scopes: ["alerts:read"] });
      const revoked = await createKey(alice.token, { name: "gone", scopes: ["alerts:read"] });
      await api.call("DELETE", `/api/api-keys/${revoked.body.id}`, { token: alice.token });
      const bobs = await createKey(bob.token, { name: "bob", scopes: ["events:read"] });

      const res = await api.call("GET", "/api/api-keys", { token: alice.token });
      expect(res.status).toBe(200);
      expect(res.body.map((k: { id: string }) => k.id).sort()).toEqual(
        [first.body.id, second.body.id].sort(),
      );
      const text = JSON.stringify(res.body);
      for (const created of [first, second, revoked, bobs]) {
        expect(text).not.toContain(created.body.key);
      }
      expect(text).not.toMatch(/keyHash|key_hash/);
      for (const item of res.body) {
        expect(item.key).toBeUndefined();
        expect(item.prefix).toMatch(/^hf_live_.{4}$/);
      }
    });
  });

  describe("revoke", () => {
    it("revokes a key: 204, revoked_at set, and the key answers 401 from then on", async () => {
      const alice = await user();
      const created = await createKey(alice.token, { name: "temp", scopes: ["events:read"] });
      const key: string = created.body.key;
      expect((await api.call("GET", "/api/probe/events", { token: key })).status).toBe(200);
      const res = await api.call("DELETE", `/api/api-keys/${created.body.id}`, {
        token: alice.token,
      });
      expect(res.status).toBe(204);
      const rows = await api.database.sql`
        select revoked_at is not null as revoked from api_keys where id = ${created.body.id}`;
      expect(rows[0]?.revoked).toBe(true);
      const after = await api.call("GET", "/api/probe/events", { token: key });
      expect(after.status).toBe(401);
      expect(after.body.message).toBe("Invalid or revoked API key");
      const again = await api.call("DELETE", `/api/api-keys/${created.body.id}`, {
        token: alice.token,
      });
      expect(again.status).toBe(404);
    });

    it("answers 403 for another user's key (which keeps working) and 404 for an unknown id", async () => {
      const alice = await user();
      const bob = await user();
      const bobs = await createKey(bob.token, { name: "bob", scopes: ["events:read"] });
      const res = await api.call("DELETE", `/api/api-keys/${bobs.body.id}`, { token: alice.token });
      expect(res.status).toBe(403);
      expect((await api.call("GET", "/api/probe/events", { token: bobs.body.key })).status).toBe(
        200,
      );
      const unknown = await api.call("DELETE", "/api/api-keys/key_unknown", {
        token: alice.token,
      });
      expect(unknown.status).toBe(404);
    });
  });

  describe("security", () => {
    it("refuses to manage keys with an API key (403), even one with every scope", async () => {
      const alice = await user();
      const { id, key } = await createApiKeyFor(api.database.db, alice.userId, {
        scopes: ["events:read", "events:write", "webhooks:read", "webhooks:write"],
      });
      const created = await createKey(key, { name: "child", scopes: ["events:read"] });
      expect(created.status).toBe(403);
      expect((await api.call("GET", "/api/api-keys", { token: key })).status).toBe(403);
      expect((await api.call("DELETE", `/api/api-keys/${id}`, { token: key })).status).toBe(403);
      const rows = await api.database.sql`select id from api_keys where owner_id = ${alice.userId}`;
      expect(rows).toHaveLength(1);
    });

    it("answers 401 without a credential", async () => {
      expect((await api.call("GET", "/api/api-keys")).status).toBe(401);
      expect(
        (await api.call("POST", "/api/api-keys", { body: { name: "k", scopes: ["events:read"] } }))
          .status,
      ).toBe(401);
    });

    it("answers 403 to a key lacking the scope an endpoint needs", async () => {
      const alice = await user();
      const created = await createKey(alice.token, { name: "w", scopes: ["webhooks:read"] });
      const res = await api.call("GET", "/api/probe/events", { token: created.body.key });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe("This API key lacks the events:read scope");
    });

    it("answers 401 to an expired key", async () => {
      const alice = await user();
      const { key } = await createApiKeyFor(api.database.db, alice.userId, {
        scopes: ["events:read"],
        expiresAt: new Date(Date.now() - 1000),
      });
      const res = await api.call("GET", "/api/probe/events", { token: key });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe("API key expired");
    });

    it("answers 403 to a key used from an origin it does not allow", async () => {
      const alice = await user();
      const created = await createKey(alice.token, {
        name: "browser",
        scopes: ["events:read"],
        allowedOrigins: ["https://app.example.com"],
      });
      const key: string = created.body.key;
      const evil = await api.call("GET", "/api/probe/events", {
        token: key,
        headers: { origin: "https://evil.example.com" },
      });
      expect(evil.status).toBe(403);
      expect(evil.body.message).toBe("Origin not allowed for this API key");

      const good = await api.call("GET", "/api/probe/events", {
        token: key,
        headers: { origin: "https://app.example.com" },
      });
      expect(good.status).toBe(200);
      expect(good.headers.get("access-control-allow-origin")).toBe("https://app.example.com");

      const serverSide = await api.call("GET", "/api/probe/events", { token: key });
      expect(serverSide.status).toBe(200);
    });
  });

  describe("CORS", () => {
    it("answers a preflight with 204, the origin echoed and the allowed headers", async () => {
      // A preflight is allowed for the origins live keys list (see cors-and-routes.test.ts).
      const alice = await user();
      await createApiKeyFor(api.database.db, alice.userId, {
        scopes: ["webhooks:read"],
        allowedOrigins: ["https://app.example.com"],
      });
      const res = await api.app.request("/api/webhooks", {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "DELETE",
          "access-control-request-headers": "authorization, content-type",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      const allowHeaders = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
      for (const header of ["authorization", "content-type", "x-organization-id"]) {
        expect(allowHeaders).toContain(header);
      }
      expect(res.headers.get("access-control-allow-methods")).toContain("DELETE");
      expect(res.headers.get("vary")).toContain("Origin");
    });

    it("adds Access-Control-Allow-Origin to responses of requests with an Origin, errors included", async () => {
      const denied = await api.call("GET", "/api/api-keys", {
        headers: { origin: "https://app.example.com" },
      });
      expect(denied.status).toBe(401);
      expect(denied.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      const plain = await api.call("GET", "/api/health");
      expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    });
  });
});
