// Worker drain against its parts' limit: a backlog of plain 1 KB events drained by ONE Hookflow
// worker process, and the same number of jobs drained by a bare BullMQ worker that only posts
// each body with undici (bench/lib/bare-worker.mjs), in alternating rounds on the same receiver,
// Redis and machine. Prints both rates, their ratio, and the CPU each process spent per event.
//
//   node bench/drain.mjs                 # 3 rounds of about 12,000 events each
//   BENCH_ROUNDS=5 BENCH_BACKLOG_S=6 node bench/drain.mjs
//   BENCH_CPU_PROF=1 node bench/drain.mjs   # also a V8 CPU profile of each Hookflow worker
import "./lib/workspace-node.mjs";
import { fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { counts } from "./lib/accounting.mjs";
import { peak } from "./lib/drivers.mjs";
import { HOOKFLOW_NODE_FLAGS, HOOKFLOW_WORKER_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
import {
  backendPids,
  commandsPerItem,
  resetCommandStats,
  startPrivateRedis,
} from "./lib/private-redis.mjs";
import { cpuPerItem, snapshotCpu } from "./lib/process-cpu.mjs";
import { peakRssMb, startProcess, stopProcess } from "./lib/processes.mjs";
import { startReceiver } from "./lib/receiver-control.mjs";
import {
  benchDatabaseUrl,
  dropBenchDatabase,
  migrate,
  newRunId,
  seedWebhooks,
} from "./lib/seed.mjs";
import { fmt, median } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BACKLOG_MS = Number(process.env.BENCH_BACKLOG_S ?? 4) * 1000;
const BARE_CONCURRENCY = Number(process.env.BENCH_BARE_CONCURRENCY ?? 100);
const PORTS = { ingress: 18303, worker: 18304, receiver: 18305 };
const run = newRunId();
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** A redis-server of the run's own, so its CPU is the run's alone (see lib/private-redis.mjs). */
const redisServer = await startPrivateRedis(Number(process.env.BENCH_REDIS_PORT ?? 18399));
const REDIS_URL = redisServer.url;
const dbUrl = benchDatabaseUrl(BASE_DB, run);
const profDir = join(
  ROOT,
  `bench/results/prof-drain-${new Date().toISOString().replace(/[:.]/g, "-")}`,
);
const profArgs =
  process.env.BENCH_CPU_PROF === "1" ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [];
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL,
  HOOKFLOW_REDIS_PREFIX: `bench_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  METRICS_PORT: "0",
  HOOKFLOW_DELAY_SCALE: "0.01",
  LOG_LEVEL: "warn",
};
const body = JSON.stringify({
  type: "order.created",
  data: { id: "ord_1", items: Array.from({ length: 12 }, (_, i) => ({ sku: `S${i}`, qty: i })) },
  pad: "x".repeat(700),
});
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
const fromQueue = createRequire(new URL("../packages/queue/package.json", import.meta.url));

/** Events/s from the receiver's arrival times, first to last (start-up excluded). */
function rateOf(arrivals) {
  if (arrivals.length < 2) return 0;
  const times = arrivals.map(([, t]) => t).sort((a, b) => a - b);
  return (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
}

async function waitCount(receiver, target, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && (await receiver.count()) < target) await sleep(50);
}

/**
 * The worker (and its children), the run's own Redis, and the Postgres backends serving the
 * run's database (found by pid, so other work on the shared server is not counted; background
 * processes such as the WAL writer are left out).
 */
const cpuGroups = (pid, pgPids) => ({
  worker: { pid, threads: true },
  redis: { pid: redisServer.pid },
  ...Object.fromEntries(pgPids.map((p) => [`pg ${p}`, { pid: p }])),
});

/** The per-event CPU of every group, Postgres backends summed into one figure. */
function cpuSummary(before, after, items) {
  const per = cpuPerItem(before, after, items);
  let postgres = 0;
  const out = {};
  for (const [name, value] of Object.entries(per)) {
    if (name.startsWith("pg ")) {
      if (!name.endsWith("children") && !name.endsWith("thread")) postgres += value;
    } else if (!name.startsWith("redis ")) out[name] = value;
  }
  return { ...out, postgres };
}

async function hookflowRound(ctx) {
  const { sql, plain, receiver } = ctx;
  const before = (await counts(sql, plain.id)).total;
  await peak({
    url: `http://127.0.0.1:${PORTS.ingress}`,
    path: `/api/in/${plain.token}`,
    body,
    connections: 32,
    durationMs: BACKLOG_MS,
  });
  const backlog = (await counts(sql, plain.id)).total - before;
  await receiver.reset();
  const worker = await startProcess({
    name: "worker",
    args: [...HOOKFLOW_WORKER_NODE_FLAGS, ...profArgs, CLI, "start", "--role", "worker"],
    env: { ...env, PORT: String(PORTS.worker) },
    healthUrl: `http://127.0.0.1:${PORTS.worker}/api/health`,
    cwd: ROOT,
  });
  // BENCH_STRACE=1: system calls of the worker during the drain (strace -c summary on stderr).
  const strace =
    process.env.BENCH_STRACE === "1"
      ? spawn("strace", ["-c", "-f", "-p", String(worker.pid)], {
          stdio: ["ignore", "ignore", "inherit"],
        })
      : undefined;
  const pgPids = await backendPids(sql, ctx.database);
  resetCommandStats(redisServer.port);
  const cpuBefore = snapshotCpu(cpuGroups(worker.pid, pgPids));
  await waitCount(receiver, backlog, 300_000);
  const redisCommands = commandsPerItem(redisServer.port, backlog);
  // Backends the worker opened during the drain count from zero.
  const allPids = await backendPids(sql, ctx.database);
  const cpu = cpuSummary(cpuBefore, snapshotCpu(cpuGroups(worker.pid, allPids)), backlog);
  const rss = peakRssMb(worker.pid);
  if (strace) {
    log(`  strace of the worker, ${backlog} events:`);
    const done = new Promise((resolve) => strace.once("exit", resolve));
    strace.kill("SIGINT");
    await done;
  }
  await stopProcess(worker);
  const { arrivals } = await receiver.drain();
  const settled = await counts(sql, plain.id);
  if (settled.pending > 0) throw new Error(`void run: ${settled.pending} events still pending`);
  return { events: backlog, rate: rateOf(arrivals), cpu, rss, redisCommands };
}

async function bareRound(ctx, jobs) {
  const { Queue } = fromQueue("bullmq");
  const { Redis } = fromQueue("ioredis");
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const prefix = `bench_${run}_bare`;
  const queue = new Queue("bare", {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 8 },
  });
  for (let i = 0; i < jobs; i += 1000) {
    const chunk = Array.from({ length: Math.min(1000, jobs - i) }, (_, j) => ({
      name: "deliver",
      data: { eventId: `evt_bare_${i + j}`, webhookId: "wh_bare", body },
      opts: { jobId: `evt_bare_${ctx.round}_${i + j}` },
    }));
    await queue.addBulk(chunk);
  }
  await ctx.receiver.reset();
  const child = fork(
    join(ROOT, "bench/lib/bare-worker.mjs"),
    ["bare", prefix, String(BARE_CONCURRENCY)],
    {
      env: {
        ...process.env,
        REDIS_URL,
        BARE_TARGET_URL: `http://127.0.0.1:${PORTS.receiver}/hook`,
      },
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    },
  );
  await new Promise((resolve) => child.once("message", resolve));
  resetCommandStats(redisServer.port);
  const cpuBefore = snapshotCpu(cpuGroups(child.pid, []));
  await waitCount(ctx.receiver, jobs, 300_000);
  const redisCommands = commandsPerItem(redisServer.port, jobs);
  const cpu = cpuSummary(cpuBefore, snapshotCpu(cpuGroups(child.pid, [])), jobs);
  const rss = peakRssMb(child.pid);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  const { arrivals } = await ctx.receiver.drain();
  await queue.close();
  connection.disconnect();
  return { events: jobs, rate: rateOf(arrivals), cpu, rss, redisCommands };
}

async function main() {
  const receiver = startReceiver(join(ROOT, "bench/lib/receiver.mjs"), PORTS.receiver);
  await receiver.ready;
  await migrate(CLI, env);
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const seeded = await seedWebhooks({ cli: CLI, env, dbUrl, run, receiverUrl, signedBody: body });
  const ingress = await startProcess({
    name: "ingress",
    args: [...HOOKFLOW_NODE_FLAGS, CLI, "start", "--role", "ingress"],
    env: { ...env, PORT: String(PORTS.ingress) },
    healthUrl: `http://127.0.0.1:${PORTS.ingress}/api/health`,
    cwd: ROOT,
  });
  const ctx = { ...seeded, receiver, database: new URL(dbUrl).pathname.slice(1) };
  const rounds = [];
  log(
    `${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      ctx.round = round;
      // Alternate which side runs first, so a drifting machine does not favour one.
      const order = round % 2 ? ["hookflow", "bare"] : ["bare", "hookflow"];
      const result = {};
      let events = 0;
      for (const side of order) {
        if (side === "hookflow") {
          result.hookflow = await hookflowRound(ctx);
          events = result.hookflow.events;
        } else {
          result.bare = await bareRound(ctx, events || 12_000);
        }
      }
      result.ratio = result.hookflow.rate / result.bare.rate;
      rounds.push(result);
      log(
        `round ${round}: hookflow ${fmt(result.hookflow.rate, 0)} events/s (${result.hookflow.events}), ` +
          `bare ${fmt(result.bare.rate, 0)} jobs/s (${result.bare.events}), ratio ${fmt(result.ratio * 100, 1)} %`,
      );
      log(`  CPU µs/event hookflow ${JSON.stringify(result.hookflow.cpu)}`);
      log(`  CPU µs/job   bare     ${JSON.stringify(result.bare.cpu)}`);
      log(`  Redis commands/event hookflow ${JSON.stringify(result.hookflow.redisCommands)}`);
      log(`  Redis commands/job   bare     ${JSON.stringify(result.bare.redisCommands)}`);
      log(
        `  peak RSS hookflow worker ${fmt(result.hookflow.rss, 0)} MB, bare ${fmt(result.bare.rss, 0)} MB`,
      );
    }
  } finally {
    await stopProcess(ingress);
    receiver.child.kill();
    await seeded.sql.end();
    await dropBenchDatabase(BASE_DB, run);
    await redisServer.stop();
  }
  const summary = {
    hookflow: median(rounds.map((r) => r.hookflow.rate)),
    bare: median(rounds.map((r) => r.bare.rate)),
    pairedRatio: median(rounds.map((r) => r.ratio)),
  };
  log(
    `\nworker drain: hookflow ${fmt(summary.hookflow, 0)} events/s, bare BullMQ + undici ${fmt(summary.bare, 0)} jobs/s; ` +
      `paired ratio ${fmt(summary.pairedRatio * 100, 1)} % (target >= 40 %); load after ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  process.stdout.write(`DRAIN_JSON ${JSON.stringify(summary)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
