import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDb, dropDatabase } from "@hookflow/db";
import { signIncomingForTest, verifyHookflowSignature } from "@hookflow/domain";
import {
  createTestDatabase,
  createTestRedisPrefix,
  killProcessTree,
  openSse,
  type Receiver,
  type SseConnection,
  startReceiver,
  type TestDatabase,
  type TestRedisPrefix,
  waitUntil,
} from "@hookflow/testing";
import {
  assertBuilt,
  type HookflowUnderTest,
  type RunningCli,
  runCli,
  startCli,
  startHookflow,
} from "./cli-process.js";

const SECRET = "cli-test-secret-cli-test-secret-cli-test";
const METRICS_TOKEN = "cli-test-metrics-token-0123";

describe("hookflow start (every role behind one port)", () => {
  let hookflow: HookflowUnderTest;
  let receiver: Receiver;
  let cli: RunningCli;
  let base: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    hookflow = await startHookflow({ HOOKFLOW_SECRET: SECRET, METRICS_TOKEN });
    ({ cli, base } = hookflow);
  });

  afterAll(async () => {
    await hookflow?.stop();
    await receiver?.close();
  });

  it("answers the api's health check on the single port", async () => {
    const res = await fetch(`${base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      role: "api",
      checks: { postgres: true, redis: true },
    });
  });

  it("routes /api/in/* to the ingress on the same port", async () => {
    const res = await fetch(`${base}/api/in/no-such-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hello: "world" }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      message: "Webhook not found for this ingress token",
      error: "Not Found",
    });
  });

  it("keeps /metrics off the public port, with or without credentials", async () => {
    for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`, "Bearer hfs_anything"]) {
      const res = await fetch(`${base}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        statusCode: 404,
        message: "Route GET /metrics not found",
        error: "Not Found",
      });
    }
  });

  it("serves metrics on the metrics port only to a scrape with METRICS_TOKEN", async () => {
    expect(cli.metricsPort).toEqual(expect.any(Number));
    expect(cli.metricsPort).not.toBe(cli.port);
    const url = `http://127.0.0.1:${cli.metricsPort}/metrics`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ statusCode: 401, error: "Unauthorized" });
    const scrape = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^# HELP /m);
  });

  it("routes the event stream path to the stream app and the rest to the api", async () => {
    await fetch(`${base}/api/events/evt_unknown/stream`);
    await fetch(`${base}/api/events/evt_unknown`);
    const metrics = await (
      await fetch(`http://127.0.0.1:${cli.metricsPort}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })
    ).text();
    // One registry for the process: each app labels its requests with its role.
    expect(metrics).toMatch(/hookflow_http_requests_total\{[^}]*role="stream"[^}]*\} 1/);
    expect(metrics).toMatch(/hookflow_http_requests_total\{[^}]*role="ingress"/);
    expect(metrics).toMatch(/hookflow_http_requests_total\{[^}]*role="api"/);
  });

  it("accepts an event at ingress and its worker delivers it to the target", async () => {
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "cli@example.com", password: "correct-horse-1", name: "Cli" }),
    });
    expect(signup.status).toBe(201);
    const { token } = (await signup.json()) as { token: string };
    const created = await fetch(`${base}/api/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "cli e2e", targetUrl: `${receiver.url}/hook` }),
    });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as { ingressToken: string };

    const accepted = await fetch(`${base}/api/in/${webhook.ingressToken}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ order: 42 }),
    });
    expect(accepted.status).toBe(202);
    const { eventId } = (await accepted.json()) as { eventId: string };

    const [delivered] = await receiver.waitForRequests(1, 20_000);
    expect(delivered?.path).toBe("/hook");
    expect(JSON.parse(delivered?.body.toString() ?? "null")).toEqual({ order: 42 });
    expect(delivered?.headers["x-hookflow-event-id"]).toBe(eventId);
  });

  it("keeps every webhook credential sealed in Postgres while each role uses it in clear", async () => {
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "sealed@example.com", password: "correct-horse-2", name: "S" }),
    });
    const { token } = (await signup.json()) as { token: string };
    const incoming = "incoming-secret-in-clear-only-in-memory";
    const created = await fetch(`${base}/api/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: "sealed",
        targetUrl: `${receiver.url}/sealed`,
        incomingSignatureType: "github",
        incomingSignatureSecret: incoming,
      }),
    });
    expect(created.status).toBe(201);
    const webhook = (await created.json()) as {
      id: string;
      ingressToken: string;
      signingSecret: string;
    };

    // What an attacker with a copy of the database reads: no credential, in any column.
    const [row] = await hookflow.database.sql`select * from webhooks where id = ${webhook.id}`;
    const stored = JSON.stringify(row);
    for (const secret of [webhook.ingressToken, webhook.signingSecret, incoming]) {
      expect(stored).not.toContain(secret);
    }
    for (const column of ["ingress_token", "signing_secret", "incoming_signature_secret"]) {
      expect(row?.[column]).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    }
    expect(row?.token_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The ingress finds it by the token's hash and verifies with the opened incoming secret; the
    // worker signs with the opened signing secret.
    const body = JSON.stringify({ sealed: true });
    const unsigned = await fetch(`${base}/api/in/${webhook.ingressToken}`, {
      method: "POST",
      body,
    });
    expect(unsigned.status).toBe(401);
    const headers = signIncomingForTest({
      type: "github",
      secret: incoming,
      rawBody: body,
      nowMs: Date.now(),
    });
    const accepted = await fetch(`${base}/api/in/${webhook.ingressToken}`, {
      method: "POST",
      headers,
      body,
    });
    expect(accepted.status).toBe(202);
    const delivered = await waitUntil(
      () => receiver.requests.find((request) => request.path === "/sealed"),
      { timeoutMs: 20_000 },
    );
    expect(
      verifyHookflowSignature(
        webhook.signingSecret,
        delivered.headers["x-hookflow-signature"] as string | undefined,
        delivered.body,
        { nowMs: Date.now() },
      ),
    ).toEqual({ ok: true });
  });

  it("answers a 6th concurrent stream of one token 429 on the single port", async () => {
    const signup = await fetch(`${base}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "streams@example.com",
        password: "correct-horse-3",
        name: "S",
      }),
    });
    const { token } = (await signup.json()) as { token: string };
    // An inactive webhook holds its events: their streams stay open.
    const created = await fetch(`${base}/api/webhooks`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: "held", targetUrl: `${receiver.url}/held`, isActive: false }),
    });
    const webhook = (await created.json()) as { ingressToken: string };
    const accepted = await fetch(`${base}/api/in/${webhook.ingressToken}`, {
      method: "POST",
      body: JSON.stringify({ held: true }),
    });
    const { eventId, streamToken } = (await accepted.json()) as {
      eventId: string;
      streamToken: string;
    };
    const url = `${base}/api/events/${eventId}/stream?token=${encodeURIComponent(streamToken)}`;
    const streams: SseConnection[] = [];
    try {
      for (let i = 0; i < 6; i++) streams.push(await openSse(url));
      expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200, 429]);
      expect(JSON.parse(streams[5]?.text ?? "")).toEqual({
        statusCode: 429,
        message: "Too many open streams for this stream token (at most 5)",
        error: "Too Many Requests",
      });
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it("shuts down cleanly on SIGTERM with exit code 0", async () => {
    cli.child.kill("SIGTERM");
    const { code, signal } = await cli.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(cli.output()).toMatch(/"msg":"stopped"/);
  });
});

describe("hookflow migrate", () => {
  it("creates a missing database and applies every migration", async () => {
    assertBuilt();
    const url = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test");
    url.pathname = `/hf_cli_migrate_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    try {
      const run = await runCli(["migrate"], { DATABASE_URL: url.toString(), LOG_LEVEL: "silent" });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/created database hf_cli_migrate_/);
      const db = createDb({ url: url.toString(), max: 1, applicationName: "hookflow-test" });
      try {
        const rows = await db.sql`
          select count(*)::int as n from information_schema.tables where table_schema = 'public'`;
        expect(rows[0]?.n).toBeGreaterThan(0);
      } finally {
        await db.close();
      }
    } finally {
      await dropDatabase(url.toString());
    }
  });
});

describe("hookflow command line", () => {
  it("prints usage on stderr and exits 2 for an unknown command", async () => {
    const run = await runCli(["frobnicate"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/unknown command: frobnicate/);
    expect(run.stderr).toMatch(/Usage: hookflow <command>/);
  });

  it("prints usage on stdout and exits 0 for --help", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/start --role <role>/);
  });

  it("rejects an unknown role with exit 2 before touching any service", async () => {
    const run = await runCli(["start", "--role", "scheduler"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--role must be one of api, ingress, worker, stream/);
  });

  it("names the invalid variable and exits 1 when the configuration is bad", async () => {
    const run = await runCli(["migrate"], { PORT: "not-a-port" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/PORT/);
  });
});

/**
 * A preloaded module that writes the URL of every module the process loaded to the file named by
 * HOOKFLOW_TEST_LOADED_MODULES when it exits.
 */
const RECORD_MODULES = `import { registerHooks } from "node:module";
import { writeFileSync } from "node:fs";
const urls = new Set();
registerHooks({ load(url, context, next) { urls.add(url); return next(url, context); } });
process.on("exit", () => writeFileSync(process.env.HOOKFLOW_TEST_LOADED_MODULES, [...urls].join("\\n")));
`;

/**
 * Code a single-role process must not load (it stays in memory for the process's life): other
 * roles' apps, the CLI's client and admin commands, and what only the api and worker use.
 */
const NOT_LOADED_BY_EVERY_ROLE = [
  "/apps/cli/dist/client/",
  "/apps/cli/dist/commands/admin-",
  "/packages/sdk/",
];
const NOT_LOADED: Record<string, string[]> = {
  api: ["/apps/ingress/", "/apps/worker/", "/apps/stream/"],
  ingress: [
    "/apps/api/",
    "/apps/worker/",
    "/apps/stream/",
    "/packages/services/",
    "/packages/pipeline/dist/engine/",
    "/packages/transforms/",
    "/undici@",
  ],
  worker: ["/apps/api/", "/apps/ingress/", "/apps/stream/", "/packages/services/"],
  stream: [
    "/apps/api/",
    "/apps/worker/",
    "/apps/ingress/",
    "/packages/services/",
    "/packages/pipeline/dist/engine/",
    "/packages/transforms/",
    "/undici@",
  ],
};

describe.each(["api", "ingress", "worker", "stream"])("hookflow start --role %s", (role) => {
  let database: TestDatabase;
  let redis: TestRedisPrefix;
  let cli: RunningCli | undefined;
  let scratch: string;

  beforeAll(async () => {
    assertBuilt();
    database = await createTestDatabase();
    redis = createTestRedisPrefix();
    scratch = mkdtempSync(join(tmpdir(), "hookflow-modules-"));
    writeFileSync(join(scratch, "record-modules.mjs"), RECORD_MODULES);
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
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("serves that role's health on PORT, its metrics on METRICS_PORT only, and exits 0 on SIGTERM", async () => {
    const loadedModules = join(scratch, "loaded.txt");
    cli = await startCli(["start", "--role", role], {
      NODE_OPTIONS: `--import=${join(scratch, "record-modules.mjs")}`,
      HOOKFLOW_TEST_LOADED_MODULES: loadedModules,
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      HOOKFLOW_REDIS_PREFIX: redis.prefix,
      HOOKFLOW_SECRET: SECRET,
      LOG_LEVEL: "info",
    });
    const res = await fetch(`http://127.0.0.1:${cli.port}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", role });
    expect((await fetch(`http://127.0.0.1:${cli.port}/metrics`)).status).toBe(404);
    const metrics = await fetch(`http://127.0.0.1:${cli.metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toMatch(/^# HELP /m);
    cli.child.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });

    const loaded = readFileSync(loadedModules, "utf8").split("\n");
    expect(loaded).toContainEqual(expect.stringContaining(`/apps/${role}/dist/`));
    const unexpected = [...NOT_LOADED_BY_EVERY_ROLE, ...(NOT_LOADED[role] ?? [])].flatMap((part) =>
      loaded.filter((url) => url.includes(part)),
    );
    expect(unexpected).toEqual([]);
  });
});
