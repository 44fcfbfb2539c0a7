import {
  createTestDatabase,
  createTestRedisPrefix,
  killProcessTree,
  streamUpload,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";
import { assertBuilt, type RunningCli, startCli } from "./cli-process.js";

const RATE_LIMIT = 4;

/** The api's edge, replayed as an attacker would against `hookflow start` (one process). */
describe("hookflow start: the api's edge", () => {
  let database: TestDatabase;
  let redis: TestRedisPrefix;
  let cli: RunningCli;
  let base: string;

  beforeAll(async () => {
    assertBuilt();
    database = await createTestDatabase();
    redis = createTestRedisPrefix();
    cli = await startCli(["start"], {
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      HOOKFLOW_REDIS_PREFIX: redis.prefix,
      HOOKFLOW_SECRET: "cli-edge-secret-cli-edge-secret-cli-edge",
      API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      LOG_LEVEL: "info",
    });
    base = `http://127.0.0.1:${cli.port}`;
  });

  afterAll(async () => {
    if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
      // The whole tree: a default start's worker process would otherwise stop gracefully by
      // itself and write its last steps after the Redis prefix is gone.
      killProcessTree(cli.child.pid);
      await cli.exited;
    }
    await redis?.destroy();
    await database?.destroy();
  });

  const json = (path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
    fetch(`${base}${path}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        "content-type": "application/json",
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });

  const signUp = async (email: string): Promise<string> => {
    const res = await json("/api/auth/signup", {
      body: { email, password: "correct-horse-9", name: "Edge" },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { token: string }).token;
  };

  it("answers a 20 MB login body 413 before it has arrived", async () => {
    const res = await streamUpload(`${base}/api/auth/login`, { totalBytes: 20 * 1024 * 1024 });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(
      expect.objectContaining({ statusCode: 413, error: "Payload Too Large" }),
    );
    expect(res.sentAll).toBe(false);
  });

  it("answers an unknown api route 404 without a credential", async () => {
    const res = await json("/api/no-such-route");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      message: "Route GET /api/no-such-route not found",
      error: "Not Found",
    });
  });

  it("checks at most five of twenty parallel wrong passwords", async () => {
    await signUp("target@example.com");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        json("/api/auth/login", { body: { email: "target@example.com", password: `no-${i}` } }),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  });

  it("rate-limits a session on /api but not the ingress or the stream", async () => {
    const token = await signUp("busy@example.com");
    for (let i = 1; i <= RATE_LIMIT; i++) {
      const res = await json("/api/webhooks", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-remaining")).toBe(String(RATE_LIMIT - i));
    }
    const limited = await json("/api/webhooks", { token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await limited.json()) as unknown).toEqual(
      expect.objectContaining({ statusCode: 429, error: "Too Many Requests" }),
    );
    for (let i = 0; i < RATE_LIMIT * 2; i++) {
      const ingress = await json("/api/in/no-such-token", { token, body: { i } });
      expect(ingress.status).toBe(404);
      expect(ingress.headers.get("ratelimit-limit")).toBeNull();
      const stream = await json("/api/events/evt_x/stream?token=nope", { token });
      expect(stream.status).toBe(401);
      expect(stream.headers.get("ratelimit-limit")).toBeNull();
    }
  });

  it("stores the TCP peer as an event's source ip, not a forged X-Forwarded-For", async () => {
    const token = await signUp("sender@example.com");
    const created = await json("/api/webhooks", {
      token,
      body: { name: "edge", targetUrl: "http://127.0.0.1:9/never" },
    });
    expect(created.status).toBe(201);
    const { ingressToken } = (await created.json()) as { ingressToken: string };
    const sent = await fetch(`${base}/api/in/${ingressToken}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.66" },
      body: "{}",
    });
    expect(sent.status).toBe(202);
    const { eventId } = (await sent.json()) as { eventId: string };
    const event = await json(`/api/events/${eventId}`, { token });
    expect(event.status).toBe(200);
    expect((await event.json()) as unknown).toEqual(
      expect.objectContaining({ sourceIp: "127.0.0.1" }),
    );
  });
});
