import { streamUpload } from "@hookflow/testing";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

describe("CORS preflight per key origins", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const preflight = (origin: string) =>
    api.app.request("/api/webhooks", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });

  it("allows nothing to an origin no key lists, even when keys without origins exist", async () => {
    const user = await createUserWithSession(api.database.db);
    await createApiKeyFor(api.database.db, user.userId, { scopes: ["webhooks:read"] });
    const res = await preflight("https://evil.example");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
  });

  it("allows an origin a live key lists, and stops when that key is revoked or expired", async () => {
    const user = await createUserWithSession(api.database.db);
    const created = await api.call("POST", "/api/api-keys", {
      token: user.token,
      body: { name: "web", scopes: ["webhooks:read"], allowedOrigins: ["https://app.example"] },
    });
    expect(created.status).toBe(201);
    const res = await preflight("https://app.example");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect((res.headers.get("access-control-allow-headers") ?? "").toLowerCase()).toContain(
      "authorization",
    );
    expect(res.headers.get("access-control-max-age")).toBe("600");

    const revoked = await api.call("DELETE", `/api/api-keys/${created.body.id}`, {
      token: user.token,
    });
    expect(revoked.status).toBe(204);
    expect(
      (await preflight("https://app.example")).headers.get("access-control-allow-origin"),
    ).toBeNull();

    await createApiKeyFor(api.database.db, user.userId, {
      scopes: ["webhooks:read"],
      allowedOrigins: ["https://old.example"],
      expiresAt: new Date(Date.now() - 1000),
    });
    expect(
      (await preflight("https://old.example")).headers.get("access-control-allow-origin"),
    ).toBeNull();
  });

  it("gives a key's refusal of an origin no allow-origin header, and its accepted origin one", async () => {
    const user = await createUserWithSession(api.database.db);
    const { key } = await createApiKeyFor(api.database.db, user.userId, {
      scopes: ["webhooks:read"],
      allowedOrigins: ["https://shop.example"],
    });
    const refused = await api.call("GET", "/api/webhooks", {
      token: key,
      headers: { origin: "https://evil.example" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Origin not allowed for this API key");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();

    const accepted = await api.call("GET", "/api/webhooks", {
      token: key,
      headers: { origin: "https://shop.example" },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(accepted.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
  });
});

describe("unknown api routes", () => {
  let api: ApiHarness;
  let token: string;
  beforeAll(async () => {
    api = await startApi();
    token = (await createUserWithSession(api.database.db)).token;
  });
  afterAll(async () => {
    await api.close();
  });

  it.each([
    ["without a credential", {}],
    ["with a session", { withToken: true }],
    ["with a credential that is not valid", { badToken: true }],
  ])(
    "answers 404 in the error shape %s",
    async (_label, how: { withToken?: boolean; badToken?: boolean }) => {
      const res = await api.call("GET", "/api/no-such-route", {
        token: how.withToken ? token : how.badToken ? "hf_live_not-a-key" : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        message: "Route GET /api/no-such-route not found",
        error: "Not Found",
      });
    },
  );

  it("answers 404 to a method a known path does not serve, with or without a credential", async () => {
    expect((await api.call("PUT", "/api/webhooks")).status).toBe(404);
    expect((await api.call("PUT", "/api/webhooks", { token })).status).toBe(404);
  });

  it("still asks known routes for a credential, and keeps the public ones public", async () => {
    const res = await api.call("GET", "/api/webhooks/wh_123");
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Unauthorized");
    expect((await api.call("GET", "/api/health")).status).toBe(200);
    expect((await api.call("GET", "/api/openapi.json")).status).toBe(200);
    const link = await api.app.request("/api/approvals/not-a-real-token");
    expect(link.status).toBe(401);
    expect(link.headers.get("content-type")).toMatch(/^text\/html/);
  });

  it("answers an unknown route before reading its body", async () => {
    const server = await api.listen();
    try {
      const res = await streamUpload(`${server.url}/api/no-such-route`, {
        totalBytes: 20 * 1024 * 1024,
      });
      expect(res.status).toBe(404);
      expect(res.sentAll).toBe(false);
    } finally {
      await server.close();
    }
  });
});
