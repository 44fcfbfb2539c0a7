// Replays the hardening scenarios of docs/decisions.md as an attacker would, against a real
// `hookflow start` (every role in one process, built from this checkout) on a database and Redis
// prefix of its own, while a probe asks /api/health every 100 ms. Each scenario must fail safely:
// the limit answers in the error shape, nothing escapes, and health answers in under a second
// throughout. Prints one line per scenario and exits 1 when any did not hold.
//
//   pnpm build && pnpm exec node scripts/attack-replay.mjs
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { dropBenchRedisKeys } from "../bench/lib/seed.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PORT = Number(process.env.ATTACK_PORT ?? 18611);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_DB = process.env.ATTACK_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const run = randomBytes(4).toString("hex");
const dbUrl = Object.assign(new URL(ADMIN_DB), { pathname: `/hookflow_attack_${run}` }).toString();
const results = [];
const log = (line) => process.stdout.write(`${line}\n`);

function check(name, ok, detail) {
  results.push({ name, ok });
  log(`${ok ? "ok  " : "FAIL"} ${name}: ${detail}`);
}

async function call(method, path, { token, body, raw, headers = {} } = {}) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined || raw !== undefined ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, headers: res.headers };
}

const errorShaped = (r) =>
  typeof r.json?.statusCode === "number" && typeof r.json?.message === "string";

/** Asks /api/health every 100 ms; `stop()` resolves with the slowest answer in ms. */
function healthProbe() {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await fetch(`${BASE}/api/health`, { signal: AbortSignal.timeout(5_000) });
      } catch {
        slowest = Math.max(slowest, 5_000);
      }
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return slowest;
    },
  };
}

async function startHookflow() {
  const child = spawn(
    process.execPath,
    ["--max-semi-space-size=16", `${ROOT}/apps/cli/dist/main.js`, "start"],
    {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: String(PORT),
        DATABASE_URL: dbUrl,
        REDIS_URL: process.env.ATTACK_REDIS_URL ?? "redis://127.0.0.1:6379",
        HOOKFLOW_REDIS_PREFIX: `attack_${run}`,
        HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
        HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
        METRICS_PORT: "0",
        LOG_LEVEL: "error",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`hookflow start exited ${child.exitCode}`);
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new Error("hookflow start did not become healthy");
}

async function signUp(email) {
  const r = await call("POST", "/api/auth/signup", {
    body: { email, password: "correct horse battery", name: "attacker" },
  });
  if (r.status !== 201) throw new Error(`signup ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json.token;
}

async function webhook(token, extra = {}) {
  const r = await call("POST", "/api/webhooks", {
    token,
    body: {
      name: `w-${randomBytes(3).toString("hex")}`,
      targetUrl: "https://example.com/h",
      ...extra,
    },
  });
  if (r.status !== 201) throw new Error(`create webhook ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

const node = (token, family, body) => call("POST", `/api/${family}`, { token, body });
const from = (id) => [{ nodeType: "webhook", nodeId: id }];

async function redos(token) {
  const hook = await webhook(token);
  const made = await node(token, "schema-validators", {
    name: "redos",
    fields: [{ path: "s", type: "string", required: true, constraints: { pattern: "^(a|a)*$" } }],
    inputNodes: from(hook.id),
  });
  const lookahead = await node(token, "schema-validators", {
    name: "lookahead",
    fields: [{ path: "s", type: "string", constraints: { pattern: "^(?=a)a$" } }],
    inputNodes: from(hook.id),
  });
  const posts = await Promise.all(
    Array.from({ length: 50 }, () =>
      call("POST", `/api/in/${hook.ingressToken}`, { body: { s: `${"a".repeat(27)}b` } }),
    ),
  );
  check(
    "a catastrophic pattern runs on a linear-time engine",
    made.status === 201 && posts.every((p) => p.status === 202),
    `validator ${made.status}, 50 events ${[...new Set(posts.map((p) => p.status))]}`,
  );
  check(
    "a pattern the linear-time engine cannot run is refused naming the field",
    lookahead.status === 400 && errorShaped(lookahead) && /pattern/.test(lookahead.json.message),
    `${lookahead.status} ${lookahead.json?.message}`,
  );
}

async function handlebarsBomb(token) {
  const hook = await webhook(token);
  const made = await node(token, "transform-nodes", {
    name: "bomb",
    transformMode: "handlebars",
    template: "{{#each items}}{{#if (json @root)}}{{/if}}{{/each}}",
    inputNodes: from(hook.id),
  });
  const items = Array.from({ length: 2_000 }, (_, i) => ({ i, pad: "x".repeat(40) }));
  const posts = await Promise.all(
    Array.from({ length: 5 }, () =>
      call("POST", `/api/in/${hook.ingressToken}`, { body: { items } }),
    ),
  );
  check(
    "a template re-serialising a 100 KB payload per loop turn is metered",
    made.status === 201 && posts.every((p) => p.status === 202),
    `transform ${made.status}, events ${posts.map((p) => p.status)}`,
  );
}

async function fanOutBomb(token) {
  const root = await webhook(token);
  const outputs = [];
  for (let i = 0; i < 50; i++) outputs.push((await webhook(token)).id);
  const level1 = await node(token, "rate-limiter-nodes", {
    name: "level 1",
    maxEvents: 1_000_000,
    windowSeconds: 60,
    outputWebhookIds: outputs,
    inputNodes: from(root.id),
  });
  const next = [];
  for (let i = 0; i < 50; i++) next.push((await webhook(token)).id);
  const level2 = (input) =>
    node(token, "rate-limiter-nodes", {
      name: `level 2 from ${input}`,
      maxEvents: 1_000_000,
      windowSeconds: 60,
      outputWebhookIds: next,
      inputNodes: from(input),
    });
  // 50 + 50 descendants of one root event: exactly the default budget of 100.
  const fits = await level2(outputs[0]);
  // 50 + 50 + 50: over it.
  const over = await level2(outputs[1]);
  check(
    "forwarding past 100 descendants of one event is refused at write time",
    level1.status === 201 &&
      fits.status === 201 &&
      [400, 409].includes(over.status) &&
      errorShaped(over) &&
      /GRAPH_MAX_DESCENDANTS/.test(over.json.message),
    `level 1 ${level1.status}, level 2 within budget ${fits.status}, past it ${over.status}: ${over.json?.message}`,
  );
}

async function bodies() {
  const big = await call("POST", "/api/auth/login", {
    raw: JSON.stringify({ email: "x@example.com", password: "x".repeat(20 * 1024 * 1024) }),
  });
  check(
    "a 20 MB login body is refused before parsing",
    big.status === 413 && errorShaped(big),
    `${big.status} ${big.json?.message}`,
  );
}

async function loginGuesses(email) {
  const tries = await Promise.all(
    Array.from({ length: 40 }, () =>
      call("POST", "/api/auth/login", { body: { email, password: "wrong password!" } }),
    ),
  );
  const counts = {};
  for (const t of tries) counts[t.status] = (counts[t.status] ?? 0) + 1;
  check(
    "40 parallel wrong guesses: at most 10 are evaluated, the rest 429",
    (counts[401] ?? 0) <= 10 && (counts[429] ?? 0) >= 30,
    JSON.stringify(counts),
  );
}

async function streams(token) {
  const hook = await webhook(token);
  const accepted = await call("POST", `/api/in/${hook.ingressToken}`, { body: { type: "x" } });
  const { eventId, streamToken } = accepted.json ?? {};
  const controllers = [];
  const statuses = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const controller = new AbortController();
      controllers.push(controller);
      const res = await fetch(
        `${BASE}/api/events/${eventId}/stream?token=${encodeURIComponent(streamToken)}`,
        { signal: controller.signal },
      );
      if (res.status !== 200) await res.text();
      return res.status;
    }),
  );
  for (const c of controllers) c.abort();
  const limited = statuses.filter((s) => s === 429).length;
  check(
    "one stream token holds at most 5 streams",
    limited === 3 && statuses.filter((s) => s === 200).length === 5,
    `statuses ${statuses.join(",")}`,
  );
}

async function apiRateLimit(token) {
  const answers = [];
  for (let batch = 0; batch < 7; batch++) {
    const round = await Promise.all(
      Array.from({ length: 100 }, () => call("GET", "/api/auth/me", { token })),
    );
    answers.push(...round);
  }
  const limited = answers.filter((a) => a.status === 429);
  check(
    "the api limits one session (600 a minute) with Retry-After",
    limited.length > 0 && limited.every((a) => a.headers.get("retry-after") && errorShaped(a)),
    `${answers.length} requests, ${limited.length} answered 429`,
  );
}

async function exposure() {
  const metrics = await call("GET", "/metrics");
  const apiMetrics = await call("GET", "/api/metrics");
  const unknown = await call("GET", "/api/no-such-route");
  check(
    "metrics are not on the public port",
    metrics.status === 404 && apiMetrics.status === 404,
    `/metrics ${metrics.status}, /api/metrics ${apiMetrics.status}`,
  );
  check(
    "an unknown /api route is 404 in the error shape without credentials",
    unknown.status === 404 && errorShaped(unknown),
    `${unknown.status}`,
  );
}

async function main() {
  const child = await startHookflow();
  const probe = healthProbe();
  try {
    const attacker = await signUp(`attacker-${run}@example.test`);
    const victimEmail = `victim-${run}@example.test`;
    await signUp(victimEmail);
    await redos(attacker);
    await handlebarsBomb(attacker);
    await fanOutBomb(attacker);
    await bodies();
    await loginGuesses(victimEmail);
    await streams(attacker);
    await exposure();
    // Last: it spends this session's budget for the minute.
    await apiRateLimit(attacker);
    // Let the worker chew through what the scenarios queued while health is still probed.
    await new Promise((r) => setTimeout(r, 5_000));
  } finally {
    const slowest = await probe.stop();
    check(
      "health answered in under 1 s throughout",
      slowest < 1_000,
      `slowest ${slowest.toFixed(0)} ms`,
    );
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    const admin = postgres(ADMIN_DB, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "hookflow_attack_${run}" with (force)`);
    await admin.end();
    await dropBenchRedisKeys(
      process.env.ATTACK_REDIS_URL ?? "redis://127.0.0.1:6379",
      `attack_${run}`,
    );
  }
  const failed = results.filter((r) => !r.ok).length;
  log(`${results.length - failed} held, ${failed} did not`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
