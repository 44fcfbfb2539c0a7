import { createLogger } from "@hookflow/observability";
import { createApiApp } from "../src/app.js";
import { type ApiServices, buildApiServices } from "../src/services.js";
import { createApiKeyFor, createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

const LIMIT = 5;

describe("per-credential API rate limit", () => {
  let api: ApiHarness;
  /** A second api process on the same database and Redis: another replica. */
  let replica: { services: ApiServices; app: ReturnType<typeof createApiApp> };
  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    const services = buildApiServices({
      config: api.services.config,
      logger: createLogger({ level: "silent", role: "api" }),
    });
    replica = { services, app: createApiApp(services) };
  });
  afterAll(async () => {
    await replica.services.close();
    await api.close();
  });

  const get = (path: string, token: string, app = api.app) =>
    app.request(path, { headers: { authorization: `Bearer ${token}` } });

  it("answers 429 in the error shape past the limit, with Retry-After and RateLimit-* headers", async () => {
    const user = await createUserWithSession(api.database.db);
    const { key } = await createApiKeyFor(api.database.db, user.userId, {
      scopes: ["webhooks:read"],
    });
    for (let i = 1; i <= LIMIT; i++) {
      const res = await get("/api/webhooks", key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe(String(LIMIT));
      expect(res.headers.get("ratelimit-remaining")).toBe(String(LIMIT - i));
      expect(res.headers.get("ratelimit-policy")).toBe(`${LIMIT};w=60`);
      const reset = Number(res.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const limited = await get("/api/webhooks", key);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      statusCode: 429,
      message: `Rate limit of ${LIMIT} requests per minute exceeded for this credential`,
      error: "Too Many Requests",
    });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    const { values } = await api.services.apiMetrics.rateLimited.get();
    expect(values.find((v) => v.labels.credential === "apiKey")?.value).toBeGreaterThanOrEqual(1);
  });

  it("counts each key and each session on its own, so one tenant's script starves no one", async () => {
    const busy = await createUserWithSession(api.database.db);
    const other = await createUserWithSession(api.database.db);
    const busyKey = await createApiKeyFor(api.database.db, busy.userId, {
      scopes: ["webhooks:read"],
    });
    const secondKey = await createApiKeyFor(api.database.db, busy.userId, {
      scopes: ["webhooks:read"],
    });
    for (let i = 0; i <= LIMIT; i++) await get("/api/webhooks", busyKey.key);
    expect((await get("/api/webhooks", busyKey.key)).status).toBe(429);
    expect((await get("/api/webhooks", secondKey.key)).status).toBe(200);
    expect((await get("/api/webhooks", busy.token)).status).toBe(200);
    expect((await get("/api/webhooks", other.token)).status).toBe(200);
  });

  it("limits a session token like a key", async () => {
    const user = await createUserWithSession(api.database.db);
    for (let i = 0; i < LIMIT; i++)
      expect((await get("/api/auth/me", user.token)).status).toBe(200);
    expect((await get("/api/auth/me", user.token)).status).toBe(429);
  });

  it("shares one window between api replicas through Redis", async () => {
    const user = await createUserWithSession(api.database.db);
    const apps = [api.app, replica.app];
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await get("/api/webhooks", user.token, apps[i % 2])).status);
    }
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
    expect((await get("/api/webhooks", user.token, replica.app)).status).toBe(429);
  });

  it("leaves routes without a credential alone", async () => {
    for (let i = 0; i < LIMIT * 3; i++) {
      const res = await api.app.request("/api/health");
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});

describe("API rate limit turned off", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_MINUTE: "0" });
  });
  afterAll(async () => {
    await api.close();
  });

  it("sends no RateLimit headers and never answers 429", async () => {
    const user = await createUserWithSession(api.database.db);
    for (let i = 0; i < 20; i++) {
      const res = await api.call("GET", "/api/webhooks", { token: user.token });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});
