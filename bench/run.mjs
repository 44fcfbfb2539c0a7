// Hookflow benchmark. Starts the stack as real processes on loopback, drives load, and prints
// side by side: bare baselines, ingress peak (with and without signature check), end-to-end
// delivery with one worker, open-loop latency, peak RSS, and a bad-receiver run. Every run
// checks that counts balance (accepted = delivered + failed + still pending) or is void.
//
//   pnpm bench                 # full run, about 2 minutes
//   BENCH_QUICK=1 pnpm bench   # shorter phases
import { fork } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { closedLoop, openLoop } from "./lib/load.mjs";
import { peakRssMb, startProcess, stopProcess } from "./lib/processes.mjs";
import { fmt, summarize } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
const PHASE_MS = QUICK ? 3000 : 8000;
const run = randomBytes(4).toString("hex");
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = (() => {
  const u = new URL(BASE_DB);
  u.pathname = `/hookflow_bench_${run}`;
  return u.toString();
})();
const PORTS = { node: 18101, hono: 18102, ingress: 18103, worker: 18104, receiver: 18105 };
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  HOOKFLOW_REDIS_PREFIX: `bench_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  HOOKFLOW_DELAY_SCALE: "0.01",
  LOG_LEVEL: "warn",
};
const body1k = JSON.stringify({
  type: "order.created",
  data: {
    id: "ord_123",
    items: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, qty: i, price: 19.99 })),
  },
  pad: "x".repeat(300),
});

const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
const results = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  },
  phases: {},
};

function startReceiver() {
  const child = fork(join(ROOT, "bench/lib/receiver.mjs"), [String(PORTS.receiver)], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const ask = (msg, type) =>
    new Promise((resolve) => {
      const on = (m) => {
        if (m.type === type) {
          child.off("message", on);
          resolve(m);
        }
      };
      child.on("message", on);
      child.send(msg);
    });
  return {
    child,
    ready: new Promise((r) => child.once("message", r)),
    setMode: (mode) => ask({ type: "mode", mode }, "ack"),
    drain: () => ask({ type: "drain" }, "arrivals"),
    reset: () => ask({ type: "reset" }, "ack"),
  };
}

async function migrateAndSeed(receiverUrl) {
  await new Promise((resolve, reject) => {
    const child = fork(CLI, ["migrate"], { env: { ...process.env, ...env }, stdio: "inherit" });
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`migrate exited ${code}`)),
    );
  });
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const userId = `usr_bench${run}`;
  await sql`insert into users (id, email, password_hash) values (${userId}, ${`bench-${run}@example.test`}, 'x')`;
  const mk = async (name, extra) => {
    const id = `wh_${name}${run}`;
    const token = randomBytes(24).toString("base64url");
    await sql`insert into webhooks ${sql({ id, owner_id: userId, name, target_url: receiverUrl, ingress_token: token, signing_secret: `whsec_${randomBytes(32).toString("base64")}`, max_retries: 20, retry_delay_seconds: 10, ...extra })}`;
    return { id, token };
  };
  const plain = await mk("plain", {});
  const secret = "bench-incoming-secret";
  const signed = await mk("signed", {
    incoming_signature_type: "custom",
    incoming_signature_secret: secret,
  });
  const bad = await mk("bad", {});
  return {
    sql,
    plain,
    signed,
    bad,
    signature: `sha256=${createHmac("sha256", secret).update(body1k).digest("hex")}`,
  };
}

async function counts(sql, webhookId) {
  const rows =
    await sql`select status, count(*)::int as n from events where webhook_id = ${webhookId} group by status`;
  const by = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  const total = rows.reduce((a, r) => a + r.n, 0);
  return {
    total,
    delivered: by.delivered ?? 0,
    failed: by.failed ?? 0,
    pending: (by.pending ?? 0) + (by.retrying ?? 0),
    by,
  };
}

async function waitSettled(sql, webhookId, accepted, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let c = await counts(sql, webhookId);
  while (Date.now() < deadline && c.delivered + c.failed < accepted) {
    await sleep(250);
    c = await counts(sql, webhookId);
  }
  return c;
}

function balance(name, accepted, c) {
  const ok = c.total === accepted && c.delivered + c.failed + c.pending === accepted;
  return {
    name,
    accepted,
    stored: c.total,
    delivered: c.delivered,
    failed: c.failed,
    stillPending: c.pending,
    balanced: ok,
  };
}

const collectIds = (map) => (text, t0) => {
  try {
    map.set(JSON.parse(text).eventId, t0);
  } catch {}
};

async function endToEndLatency(receiver, sentAt) {
  const { arrivals } = await receiver.drain();
  const origin = performance.timeOrigin;
  const lat = [];
  const seen = new Set();
  for (const [id, at] of arrivals) {
    if (seen.has(id)) continue;
    seen.add(id);
    const t0 = sentAt.get(id);
    if (t0 !== undefined) lat.push(at - (origin + t0));
  }
  return summarize(lat);
}

async function main() {
  const procs = [];
  const receiver = startReceiver();
  await receiver.ready;
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const { sql, plain, signed, bad, signature } = await migrateAndSeed(receiverUrl);
  try {
    // (a) baselines, each alone on the machine.
    for (const kind of ["node", "hono"]) {
      const p = await startProcess({
        name: kind,
        args: [join(ROOT, "bench/lib/baselines.mjs"), kind, String(PORTS[kind])],
        env: {},
        healthUrl: `http://127.0.0.1:${PORTS[kind]}/api/health`,
        cwd: ROOT,
      });
      const r = await closedLoop({
        url: `http://127.0.0.1:${PORTS[kind]}`,
        path: "/api/in/x",
        body: body1k,
        durationMs: PHASE_MS,
      });
      results.phases[`baseline_${kind}`] = {
        rps: r.rps,
        p50: r.latency.p50,
        p99: r.latency.p99,
        rssMb: peakRssMb(p.pid),
      };
      log(
        `baseline ${kind}: ${fmt(r.rps, 0)} req/s p50 ${fmt(r.latency.p50)} ms p99 ${fmt(r.latency.p99)} ms`,
      );
      await stopProcess(p);
    }

    // (a) ingress alone: durable accept (insert + enqueue) before every 202.
    const ingress = await startProcess({
      name: "ingress",
      args: [CLI, "start", "--role", "ingress"],
      env: { ...env, PORT: String(PORTS.ingress) },
      healthUrl: `http://127.0.0.1:${PORTS.ingress}/api/health`,
      cwd: ROOT,
    });
    procs.push(ingress);
    const ingressUrl = `http://127.0.0.1:${PORTS.ingress}`;
    const a1 = await closedLoop({
      url: ingressUrl,
      path: `/api/in/${plain.token}`,
      body: body1k,
      durationMs: PHASE_MS,
    });
    const a2 = await closedLoop({
      url: ingressUrl,
      path: `/api/in/${signed.token}`,
      body: body1k,
      headers: { "x-webhook-signature": signature },
      durationMs: PHASE_MS,
    });
    results.phases.ingress_peak = {
      rps: a1.rps,
      p50: a1.latency.p50,
      p99: a1.latency.p99,
      errors: a1.errors,
      statuses: a1.statuses,
    };
    results.phases.ingress_peak_signed = {
      rps: a2.rps,
      p50: a2.latency.p50,
      p99: a2.latency.p99,
      errors: a2.errors,
    };
    log(
      `ingress: ${fmt(a1.rps, 0)} req/s (signed ${fmt(a2.rps, 0)}) p50 ${fmt(a1.latency.p50)} p99 ${fmt(a1.latency.p99)} ms; ${fmt((100 * a1.rps) / results.phases.baseline_hono.rps, 0)}% of bare Hono`,
    );
    const acceptedPlain = a1.ok;
    const acceptedSigned = a2.ok;

    // (b) one worker drains the backlog the ingress phase left: pure delivery throughput.
    await receiver.reset();
    const drainStart = performance.now();
    const worker = await startProcess({
      name: "worker",
      args: [CLI, "start", "--role", "worker"],
      env: { ...env, PORT: String(PORTS.worker) },
      healthUrl: `http://127.0.0.1:${PORTS.worker}/api/health`,
      cwd: ROOT,
    });
    procs.push(worker);
    const cPlain = await waitSettled(sql, plain.id, acceptedPlain, 180_000);
    const drainSeconds = (performance.now() - drainStart) / 1000;
    const cSigned = await waitSettled(sql, signed.id, acceptedSigned, 120_000);
    const drainRate =
      (cPlain.delivered + cSigned.delivered) / ((performance.now() - drainStart) / 1000);
    results.phases.e2e_drain = {
      eventsPerSecond: drainRate,
      seconds: drainSeconds,
      balance: [
        balance("plain", acceptedPlain, cPlain),
        balance("signed", acceptedSigned, cSigned),
      ],
    };
    log(
      `worker drain: ${fmt(drainRate, 0)} events/s delivered (backlog ${acceptedPlain + acceptedSigned})`,
    );
    await receiver.drain();

    // (b') ingress and worker together at full closed-loop load.
    const sentAt = new Map();
    const before = await counts(sql, plain.id);
    const b = await closedLoop({
      url: ingressUrl,
      path: `/api/in/${plain.token}`,
      body: body1k,
      durationMs: PHASE_MS,
      onResponse: collectIds(sentAt),
    });
    const cB = await waitSettled(sql, plain.id, before.total + b.ok, 120_000);
    const e2eB = await endToEndLatency(receiver, sentAt);
    results.phases.e2e_concurrent = {
      ingressRps: b.rps,
      deliveredPerSecond: (cB.delivered - before.delivered) / b.seconds,
      latency: e2eB,
      balance: balance("plain", before.total + b.ok, cB),
    };
    log(
      `together: ingress ${fmt(b.rps, 0)} req/s, e2e p50 ${fmt(e2eB.p50)} p99 ${fmt(e2eB.p99)} ms`,
    );

    // (c) open loop at fixed rates.
    const peak = a1.rps;
    for (const [label, rate] of [
      ["500/s", 500],
      ["50% of peak", Math.round(peak * 0.5)],
      ["80% of peak", Math.round(peak * 0.8)],
    ]) {
      const sent = new Map();
      const pre = await counts(sql, plain.id);
      const r = await openLoop({
        url: ingressUrl,
        path: `/api/in/${plain.token}`,
        body: body1k,
        rate,
        durationMs: PHASE_MS,
        onResponse: collectIds(sent),
      });
      const c = await waitSettled(sql, plain.id, pre.total + r.ok, 120_000);
      const e2e = await endToEndLatency(receiver, sent);
      results.phases[`open_${rate}`] = {
        label,
        rate,
        achievedRps: r.achievedRps,
        ingress: r.latency,
        e2e,
        errors: r.errors,
        balance: balance("plain", pre.total + r.ok, c),
      };
      log(
        `open ${label} (${rate}/s): ingress p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)} ms; e2e p50 ${fmt(e2e.p50)} p99 ${fmt(e2e.p99)} ms`,
      );
    }

    // (e) bad receiver: 200 ms answers, 10 % HTTP 500, down for 10 s in the middle.
    const badRate = 200;
    const refSent = new Map();
    const ref = await openLoop({
      url: ingressUrl,
      path: `/api/in/${bad.token}`,
      body: body1k,
      rate: badRate,
      durationMs: PHASE_MS,
      onResponse: collectIds(refSent),
    });
    await receiver.setMode({ mode: "bad", delayMs: 200, failRate: 0.1 });
    const downTimer = (async () => {
      await sleep(QUICK ? 1000 : 3000);
      await receiver.setMode({ mode: "down" });
      await sleep(10_000);
      await receiver.setMode({ mode: "bad", delayMs: 200, failRate: 0.1 });
    })();
    const badRun = await openLoop({
      url: ingressUrl,
      path: `/api/in/${bad.token}`,
      body: body1k,
      rate: badRate,
      durationMs: Math.max(PHASE_MS * 2, 15_000),
      onResponse: collectIds(new Map()),
    });
    await downTimer;
    const cBad = await waitSettled(sql, bad.id, ref.ok + badRun.ok, 240_000);
    results.phases.bad_receiver = {
      rate: badRate,
      ingressP99Reference: ref.latency.p99,
      ingressP99DuringBadReceiver: badRun.latency.p99,
      ingressP50: badRun.latency.p50,
      errors: badRun.errors,
      balance: balance("bad", ref.ok + badRun.ok, cBad),
    };
    log(
      `bad receiver: ingress p99 ${fmt(badRun.latency.p99)} ms (reference ${fmt(ref.latency.p99)} ms), delivered ${cBad.delivered}/${ref.ok + badRun.ok}, failed ${cBad.failed}`,
    );

    // (d) peak RSS.
    results.phases.rss = { ingressMb: peakRssMb(ingress.pid), workerMb: peakRssMb(worker.pid) };
    log(
      `peak RSS: ingress ${fmt(results.phases.rss.ingressMb, 0)} MB, worker ${fmt(results.phases.rss.workerMb, 0)} MB`,
    );
  } finally {
    for (const p of procs.reverse()) await stopProcess(p);
    receiver.child.kill();
    await sql.end();
    const admin = postgres(BASE_DB, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "hookflow_bench_${run}" with (force)`);
    await admin.end();
  }

  const balances = Object.values(results.phases).flatMap((p) =>
    p.balance ? [p.balance].flat() : [],
  );
  results.void = balances.some((b) => !b.balanced);
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const file = join(ROOT, `bench/results/${results.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(JSON.stringify(results, null, 2));
  if (results.void) {
    log("VOID: counts did not balance:", JSON.stringify(balances.filter((b) => !b.balanced)));
    process.exit(1);
  }
  log(`results written to ${file}`);
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
