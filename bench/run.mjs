// Hookflow benchmark. Starts the stack as real processes on loopback, drives load from separate
// processes (wrk for closed-loop peaks when installed, an undici client in a child process for
// open loops and id-collecting runs), and prints side by side: bare node:http and bare Hono,
// ingress peak with and without a signature check, ingress latency at fixed rates, end-to-end
// delivery with one worker, peak RSS, and a bad-receiver run. Every phase checks that its counts
// balance (accepted = stored = delivered + failed + still pending) or the run is void.
//
//   pnpm bench                      # full run, about 4 minutes
//   BENCH_QUICK=1 pnpm bench        # shorter phases
//   BENCH_DRIVER=node pnpm bench    # closed-loop peaks with the Node client instead of wrk
//   BENCH_CPU_PROF=1 pnpm bench     # also write V8 CPU profiles of ingress and worker
//   BENCH_PHASES=ingress pnpm bench # baselines and the ingress alone (no worker phases)
//   BENCH_DRAIN=0 pnpm bench        # without the worker drain against a bare BullMQ worker
//   BENCH_WARMUP_SECONDS=0 pnpm bench  # peaks without their unmeasured warm-up (default 3 s)
//   BENCH_PG_FLUSH_AFTER=0 pnpm bench  # the bench database keeps the server's backend_flush_after
import "./lib/workspace-node.mjs";
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { balance, counts } from "./lib/accounting.mjs";
import { drainComparison } from "./lib/drain-child.mjs";
import { inChild, peak, peakDriverName, WARMUP_MS, warmUp } from "./lib/drivers.mjs";
import { HOOKFLOW_NODE_FLAGS, HOOKFLOW_WORKER_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
import { describeWriteback, hostWriteback } from "./lib/host-writeback.mjs";
import { peakRssMb, startProcess, stopProcess } from "./lib/processes.mjs";
import { startReceiver } from "./lib/receiver-control.mjs";
import { printSummary } from "./lib/report.mjs";
import {
  BENCH_PG_FLUSH_AFTER,
  benchDatabaseUrl,
  dropBenchDatabase,
  dropBenchRedisKeys,
  migrate,
  newRunId,
  seedWebhooks,
} from "./lib/seed.mjs";
import { fmt } from "./lib/stats.mjs";
import { workerPhases } from "./lib/worker-phases.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
/** BENCH_PHASES=ingress: baselines and the ingress alone, no worker (fast profiling loop). */
const INGRESS_ONLY = process.env.BENCH_PHASES === "ingress";
const PHASE_MS = QUICK ? 3000 : 8000;
/** Open loops send at their rate this long before measuring (bench/lib/load.mjs, openLoop). */
const OPEN_WARMUP_MS = 1000;
const CONNECTIONS = 64;
const run = newRunId();
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = benchDatabaseUrl(BASE_DB, run);
const PORTS = { node: 18101, hono: 18102, ingress: 18103, worker: 18104, receiver: 18105 };
const date = new Date().toISOString();
const profDir = join(ROOT, `bench/results/prof-${date.replace(/[:.]/g, "-")}`);
const profArgs =
  process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  HOOKFLOW_REDIS_PREFIX: `bench_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  // Several apps run side by side: each takes a free port for its metrics listener.
  METRICS_PORT: "0",
  HOOKFLOW_DELAY_SCALE: "0.01",
  LOG_LEVEL: "warn",
};
/** 1 KB of JSON, the payload of every phase. */
const body1k = (() => {
  const base = {
    type: "order.created",
    data: {
      id: "ord_123",
      items: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, qty: i, price: 19.99 })),
    },
    pad: "",
  };
  base.pad = "x".repeat(1024 - JSON.stringify(base).length);
  return JSON.stringify(base);
})();

const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
const results = {
  date,
  machine: {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    loadavgBefore: loadavg(),
    writeback: hostWriteback(),
  },
  peakDriver: peakDriverName(),
  connections: CONNECTIONS,
  bodyBytes: Buffer.byteLength(body1k),
  phases: {},
};

const post = (url, webhook, extra = {}) => ({
  url,
  path: `/api/in/${webhook.token}`,
  body: body1k,
  connections: CONNECTIONS,
  durationMs: PHASE_MS,
  ...extra,
});

const app = (name, role, port) =>
  startProcess({
    name,
    args: [
      ...(role === "worker" ? HOOKFLOW_WORKER_NODE_FLAGS : HOOKFLOW_NODE_FLAGS),
      ...profArgs,
      CLI,
      "start",
      "--role",
      role,
    ],
    env: { ...env, PORT: String(port) },
    healthUrl: `http://127.0.0.1:${port}/api/health`,
    cwd: ROOT,
  });

async function main() {
  const procs = [];
  const receiver = startReceiver(join(ROOT, "bench/lib/receiver.mjs"), PORTS.receiver);
  await receiver.ready;
  await migrate(CLI, { ...env });
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const seeded = await seedWebhooks({
    cli: CLI,
    env,
    dbUrl,
    run,
    receiverUrl,
    signedBody: body1k,
  });
  const { sql, plain, signed, bad, signature } = seeded;
  results.pgBackendFlushAfter = BENCH_PG_FLUSH_AFTER;
  log(
    `bench database: backend_flush_after = ${BENCH_PG_FLUSH_AFTER === "0" ? "the server's own" : BENCH_PG_FLUSH_AFTER} (README, "Postgres settings"; BENCH_PG_FLUSH_AFTER=0 leaves it)`,
  );
  log(describeWriteback(results.machine.writeback));
  const P = results.phases;
  try {
    // (a) Baselines, each alone on the machine, with the same driver as the ingress peak.
    for (const kind of ["node", "hono"]) {
      const p = await startProcess({
        name: kind,
        args: [join(ROOT, "bench/lib/baselines.mjs"), kind, String(PORTS[kind])],
        env: {},
        healthUrl: `http://127.0.0.1:${PORTS[kind]}/api/health`,
        cwd: ROOT,
      });
      const url = `http://127.0.0.1:${PORTS[kind]}`;
      await warmUp(post(url, { token: "x" }));
      const r = await peak(post(url, { token: "x" }));
      P[`baseline_${kind}`] = { rps: r.rps, p50: r.latency.p50, p99: r.latency.p99 };
      log(
        `baseline ${kind}: ${fmt(r.rps, 0)} req/s p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)} ms`,
      );
      if (kind === "hono" && r.driver === "wrk") {
        // Does the load generator matter? The same server, driven by the Node client.
        const n = await inChild("closed", post(url, { token: "x" }));
        P.loadgen_check = { honoWithWrk: r.rps, honoWithNodeClient: n.rps };
        log(`bare Hono with the Node client instead: ${fmt(n.rps, 0)} req/s`);
      }
      await stopProcess(p);
    }

    // (a) Ingress alone: durable accept (insert + enqueue) before every 202.
    const ingress = await app("ingress", "ingress", PORTS.ingress);
    procs.push(ingress);
    const ingressUrl = `http://127.0.0.1:${PORTS.ingress}`;
    const signedPost = post(ingressUrl, signed, { headers: { "x-webhook-signature": signature } });
    // Warmed like the baselines; the events the warm-up stores stay (the drain delivers them).
    const cold = await warmUp(post(ingressUrl, plain));
    await warmUp(signedPost);
    await sleep(1000); // requests wrk abandoned at the warm-up's stop may still be committing
    const beforePeak = [await counts(sql, plain.id), await counts(sql, signed.id)];
    const a1 = await peak(post(ingressUrl, plain));
    const a2 = await peak(signedPost);
    const hono = P.baseline_hono.rps;
    P.ingress_peak = { rps: a1.rps, p50: a1.latency.p50, p99: a1.latency.p99, errors: a1.errors };
    P.ingress_peak_signed = {
      rps: a2.rps,
      p50: a2.latency.p50,
      p99: a2.latency.p99,
      errors: a2.errors,
    };
    P.ingress_ratio = { ofBareHono: a1.rps / hono };
    if (cold) {
      P.ingress_warmup = { seconds: WARMUP_MS / 1000, rps: cold.rps, p99: cold.latency.p99 };
      log(`ingress warm-up (its first ${WARMUP_MS / 1000} s): ${fmt(cold.rps, 0)} req/s`);
    }
    log(
      `ingress: ${fmt(a1.rps, 0)} req/s (signed ${fmt(a2.rps, 0)}) p50 ${fmt(a1.latency.p50)} p99 ${fmt(a1.latency.p99)} ms; ${fmt(100 * P.ingress_ratio.ofBareHono, 1)}% of bare Hono`,
    );
    await sleep(1000); // requests wrk abandoned at its stop may still be committing
    const since = (c, before) => ({
      ...c,
      total: c.total - before.total,
      pending: c.pending - before.pending,
    });
    const peakBalance = [
      balance(
        "plain",
        a1.ok,
        since(await counts(sql, plain.id), beforePeak[0]),
        a1.unansweredAtMost ?? 0,
      ),
      balance(
        "signed",
        a2.ok,
        since(await counts(sql, signed.id), beforePeak[1]),
        a2.unansweredAtMost ?? 0,
      ),
    ];
    P.ingress_peak.balance = peakBalance;

    // (c) Ingress alone at fixed rates (open loop, latency from the scheduled send time). No
    // worker runs yet: this is the ingress's own latency; the backlog waits in the queue.
    // BENCH_OPEN_PEAK fixes the rates (its 50 and 80 %), so two builds meet the same load.
    const peakRps =
      Number(process.env.BENCH_OPEN_PEAK) > 0 ? Number(process.env.BENCH_OPEN_PEAK) : a1.rps;
    for (const share of [0.5, 0.8]) {
      const rate = Math.round(peakRps * share);
      const pre = await counts(sql, plain.id);
      const r = await inChild(
        "open",
        post(ingressUrl, plain, { rate, connections: 256, warmupMs: OPEN_WARMUP_MS }),
      );
      const c = await counts(sql, plain.id);
      P[`ingress_open_${share * 100}`] = {
        rate,
        achievedRps: r.achievedRps,
        latency: r.latency,
        warmupLatency: r.warmupLatency,
        errors: r.errors,
        balance: balance("plain", pre.total + r.ok, c),
      };
      log(
        `ingress alone open ${share * 100}% of peak (${rate}/s): p50 ${fmt(r.latency.p50)} p99 ${fmt(r.latency.p99)} ms, errors ${r.errors}; warm-up second p99 ${fmt(r.warmupLatency.p99)} ms`,
      );
    }

    let worker = null;
    if (!INGRESS_ONLY) {
      await workerPhases({
        P,
        sql,
        plain,
        signed,
        bad,
        receiver,
        ingressUrl,
        peakRps,
        post,
        quick: QUICK,
        phaseMs: PHASE_MS,
        openWarmupMs: OPEN_WARMUP_MS,
        log,
        startWorker: async () => {
          worker = await app("worker", "worker", PORTS.worker);
          procs.push(worker);
        },
      });
    }

    // (d) Peak RSS over the whole run (Linux VmHWM).
    P.rss = { ingressMb: peakRssMb(ingress.pid), workerMb: worker ? peakRssMb(worker.pid) : null };
    log(
      `peak RSS: ingress ${fmt(P.rss.ingressMb, 0)} MB${worker ? `, worker ${fmt(P.rss.workerMb, 0)} MB` : ""}`,
    );
  } finally {
    for (const p of procs.reverse()) await stopProcess(p);
    receiver.child.kill();
    await sql.end();
    await dropBenchDatabase(BASE_DB, run);
    await dropBenchRedisKeys(env.REDIS_URL, env.HOOKFLOW_REDIS_PREFIX);
  }

  // The worker against its parts' limit: bench/drain.mjs (a bare BullMQ + undici worker and
  // Hookflow's worker draining the same backlog, in alternating rounds) in its own process.
  if (!INGRESS_ONLY && process.env.BENCH_DRAIN !== "0") {
    const drain = await drainComparison(QUICK ? 1 : 2);
    P.worker_drain = drain;
    log(
      `worker drain: hookflow ${fmt(drain.hookflow, 0)} events/s, bare BullMQ + undici ${fmt(drain.bare, 0)} jobs/s, ` +
        `paired ratio ${fmt(drain.pairedRatio * 100, 1)} % (target >= 40 %)`,
    );
  }

  results.machine.loadavgAfter = loadavg();
  const balances = Object.values(P).flatMap((p) => (p?.balance ? [p.balance].flat() : []));
  results.void = balances.some((b) => !b.balanced);
  if (profArgs.length > 0) results.cpuProfiles = readdirSync(profDir).map((f) => join(profDir, f));
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const file = join(ROOT, `bench/results/${date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  printSummary(results, log);
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
