// Peer run: Hookflow against Node-RED 4.1.8 forwarding the same load, on the same machine, in
// the same run. Node-RED's flow is the usual "webhook in -> HTTP request" forward (http in ->
// http response 202, and in parallel an http request POSTing the payload to the receiver):
// nothing durable, no retries. Hookflow runs as the default `hookflow start` (the http roles in
// one process, the worker in a child process on a machine with two or more cores) and as
// `hookflow start --worker-processes 0` (every role in one process, one Node thread against
// Node-RED's one thread), and stores every event before its 202. Both get the same wrk load (50
// connections); delivered/s is what the receiver counted from the start of the load until the
// last delivery of an accepted request, so work a server defers past the load is charged to it.
// Counts must balance: Hookflow delivers every accepted event; for Node-RED the receiver's count
// is reported against wrk's 2xx answers (it keeps nothing, so what it drops is lost).
// Each side also reports its CPU per delivered event by process (server, worker processes,
// Redis, Postgres, receiver, wrk), read from /proc.
// Then it runs bench/drain.mjs once: a bare BullMQ + undici worker's jobs/s next to Hookflow's
// worker draining a backlog.
//
//   node bench/peer.mjs                   # 15 s of load per side, two rounds
//   BENCH_QUICK=1 node bench/peer.mjs     # 5 s, one round
//   BENCH_PEER_DRAIN=0 node bench/peer.mjs  # without the drain comparison
//   BENCH_WARMUP_SECONDS=0 node bench/peer.mjs  # no unmeasured warm-up before each side (3 s)
//
// Node-RED is installed with npm into $TMPDIR/hookflow-bench-node-red-4.1.8 on first use (not a
// dependency of the workspace) and run on the same Node as Hookflow.
import "./lib/workspace-node.mjs";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { balance, counts } from "./lib/accounting.mjs";
import { drainComparison } from "./lib/drain-child.mjs";
import { WARMUP_MS, warmUp } from "./lib/drivers.mjs";
import { HOOKFLOW_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
import { cpuPerItem, snapshotCpu } from "./lib/process-cpu.mjs";
import { childPids, peakRssMb, startProcess, stopProcess } from "./lib/processes.mjs";
import { startReceiver } from "./lib/receiver-control.mjs";
import {
  benchDatabaseUrl,
  dropBenchDatabase,
  dropBenchRedisKeys,
  migrate,
  newRunId,
  seedWebhooks,
} from "./lib/seed.mjs";
import { fmt, median } from "./lib/stats.mjs";
import { wrkClosedLoop, wrkVersion } from "./lib/wrk.mjs";

const NODE_RED_VERSION = "4.1.8";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
const LOAD_MS = Number(process.env.BENCH_PEER_SECONDS ?? (QUICK ? 5 : 15)) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 2));
const CONNECTIONS = 50;
const PORTS = { hookflow: 18403, nodeRed: 18404, receiver: 18405 };
const run = newRunId();
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = benchDatabaseUrl(BASE_DB, run);
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  HOOKFLOW_REDIS_PREFIX: `bench_peer_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  METRICS_PORT: "0",
  LOG_LEVEL: "warn",
};
const body = JSON.stringify({
  type: "order.created",
  data: { id: "ord_1", items: Array.from({ length: 12 }, (_, i) => ({ sku: `S${i}`, qty: i })) },
  pad: "x".repeat(700),
});
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

/** Installs Node-RED into a temporary folder once; returns the path of its red.js. */
function ensureNodeRed() {
  const dir = join(tmpdir(), `hookflow-bench-node-red-${NODE_RED_VERSION}`);
  const redJs = join(dir, "node_modules", "node-red", "red.js");
  if (!existsSync(redJs)) {
    log(`installing node-red@${NODE_RED_VERSION} into ${dir} (first use)`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), '{"name":"bench-node-red","private":true}\n');
    execFileSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--omit=dev", `node-red@${NODE_RED_VERSION}`],
      { cwd: dir, stdio: ["ignore", "ignore", "inherit"] },
    );
  }
  return redJs;
}

/** Node-RED's user folder: the forward flow, a health route, no editor, warnings only. */
function nodeRedUserDir(receiverUrl) {
  const dir = join(tmpdir(), `hookflow-bench-node-red-user-${run}`);
  mkdirSync(dir, { recursive: true });
  const flows = [
    { id: "tab", type: "tab", label: "forward" },
    {
      id: "in",
      type: "http in",
      z: "tab",
      url: "/hook",
      method: "post",
      upload: false,
      wires: [["ack", "forward"]],
    },
    { id: "ack", type: "http response", z: "tab", statusCode: "202", headers: {}, wires: [] },
    {
      id: "forward",
      type: "http request",
      z: "tab",
      method: "POST",
      ret: "txt",
      paytoqs: "ignore",
      url: receiverUrl,
      persist: true,
      wires: [[]],
    },
    { id: "health", type: "http in", z: "tab", url: "/health", method: "get", wires: [["ok"]] },
    { id: "ok", type: "http response", z: "tab", statusCode: "200", headers: {}, wires: [] },
  ];
  writeFileSync(join(dir, "flows.json"), JSON.stringify(flows));
  writeFileSync(
    join(dir, "settings.js"),
    `module.exports = {
  flowFile: "flows.json",
  uiHost: "127.0.0.1",
  uiPort: ${PORTS.nodeRed},
  httpAdminRoot: false,
  credentialSecret: false,
  logging: { console: { level: "warn", metrics: false, audit: false } },
  editorTheme: { tours: false },
};\n`,
  );
  return dir;
}

/** Polls the receiver until `done(count)` or `timeoutMs`; returns the last arrival's time. */
async function lastArrival(receiver, done, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let last = 0;
  let total = 0;
  let stillSince = Date.now();
  while (Date.now() < deadline) {
    const { arrivals } = await receiver.drain();
    total += arrivals.length;
    for (const [, t] of arrivals) last = Math.max(last, t);
    if (arrivals.length > 0) stillSince = Date.now();
    if (await done(total, Date.now() - stillSince)) break;
    await sleep(100);
  }
  return { last, total };
}

/**
 * Where one side's CPU went, per delivered event: the server process (for `hookflow start`, its
 * worker processes are its children), Redis and Postgres (every process of theirs on the
 * machine), the receiver, and wrk (a child of this process, read once it has exited).
 */
function cpuGroups(serverPid, receiver) {
  return {
    server: { pid: serverPid },
    redis: { comm: /^redis-server$/ },
    postgres: { comm: /^postgres$/ },
    receiver: { pid: receiver.child.pid },
  };
}

/** CPU ticks of this process's children that have exited (wrk, within a side's window). */
function reapedChildrenTicks() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[13]) + Number(fields[14]);
}

/**
 * One side: an unmeasured warm-up (bench/lib/drivers.mjs) until its deliveries settled, then wrk
 * for LOAD_MS and until every accepted request has arrived. `beforeLoad` runs between the two.
 */
async function loadSide({ name, url, receiver, settled, serverPid, beforeLoad = async () => {} }) {
  const warm = await warmUp({ url, path: "", body, connections: CONNECTIONS });
  if (warm) await lastArrival(receiver, (n, quietMs) => settled(warm, n, quietMs), 120_000);
  await beforeLoad();
  await receiver.reset();
  const groups = cpuGroups(serverPid, receiver);
  const cpuBefore = snapshotCpu(groups);
  const childrenBefore = reapedChildrenTicks();
  const start = performance.timeOrigin + performance.now();
  const r = await wrkClosedLoop({
    url,
    path: "",
    body,
    connections: CONNECTIONS,
    durationMs: LOAD_MS,
  });
  const { last, total } = await lastArrival(
    receiver,
    (n, quietMs) => settled(r, n, quietMs),
    120_000,
  );
  const seconds = (last - start) / 1000;
  const delivered = total / seconds;
  const cpu = cpuPerItem(
    { ...cpuBefore, wrk: childrenBefore },
    { ...snapshotCpu(groups), wrk: reapedChildrenTicks() },
    total,
  );
  log(
    `${name}: accepted ${fmt(r.rps, 0)}/s (${r.ok}, p99 ${fmt(r.latency.p99)} ms, errors ${r.errors}), ` +
      `delivered ${total} in ${fmt(seconds, 1)} s = ${fmt(delivered, 0)}/s\n` +
      `  CPU µs per delivered event: server ${cpu["server main thread"]} main thread + ` +
      `${cpu.server - cpu["server main thread"]} other threads, worker processes ${cpu["server children"]}, ` +
      `redis ${cpu.redis}, postgres ${cpu.postgres}, wrk ${cpu.wrk}, receiver ${cpu.receiver + cpu["receiver children"]}`,
  );
  return {
    accepted: r.ok,
    acceptedPerS: r.rps,
    p99: r.latency.p99,
    errors: r.errors,
    delivered: total,
    seconds,
    deliveredPerS: delivered,
    cpuUsPerDelivered: cpu,
  };
}

async function nodeRedRound(redJs, userDir, receiver) {
  const proc = await startProcess({
    name: "node-red",
    args: [redJs, "--userDir", userDir, "--settings", join(userDir, "settings.js")],
    env: {},
    healthUrl: `http://127.0.0.1:${PORTS.nodeRed}/health`,
    cwd: userDir,
  });
  try {
    const result = await loadSide({
      serverPid: proc.pid,
      name: "node-red",
      url: `http://127.0.0.1:${PORTS.nodeRed}/hook`,
      receiver,
      // Node-RED keeps nothing: done once no forward arrived for 2 s.
      settled: async (r, n, quietMs) => n >= r.ok || quietMs > 2000,
    });
    result.rssMb = peakRssMb(proc.pid);
    // wrk abandons at most CONNECTIONS requests at its stop; Node-RED may still forward them.
    result.lost = Math.max(0, result.accepted - result.delivered);
    return result;
  } finally {
    await stopProcess(proc);
  }
}

/** The Hookflow sides: the default start, and every role in one process. */
const HOOKFLOW_SIDES = {
  hookflow: { name: "hookflow start", args: [] },
  single: { name: "hookflow start --worker-processes 0", args: ["--worker-processes", "0"] },
};

async function hookflowRound(seeded, receiver, side) {
  const { sql, plain } = seeded;
  const proc = await startProcess({
    name: side.name,
    args: [...HOOKFLOW_NODE_FLAGS, CLI, "start", ...side.args],
    env: { ...env, PORT: String(PORTS.hookflow) },
    healthUrl: `http://127.0.0.1:${PORTS.hookflow}/api/health`,
    cwd: ROOT,
  });
  try {
    let before;
    const result = await loadSide({
      serverPid: proc.pid,
      name: side.name,
      url: `http://127.0.0.1:${PORTS.hookflow}/api/in/${plain.token}`,
      receiver,
      // Durable: done once every stored event of this round is delivered or failed.
      settled: async () => (await counts(sql, plain.id)).pending === 0,
      beforeLoad: async () => {
        before = await counts(sql, plain.id);
      },
    });
    const after = await counts(sql, plain.id);
    const stored = {
      ...after,
      total: after.total - before.total,
      delivered: after.delivered - before.delivered,
      failed: after.failed - before.failed,
    };
    result.balance = balance(side.name, result.accepted, stored, CONNECTIONS);
    result.rssMb = peakRssMb(proc.pid);
    // Worker processes (the default start on two or more cores): their peaks, one per process.
    result.workerProcessRssMb = childPids(proc.pid).map(peakRssMb);
    return result;
  } finally {
    await stopProcess(proc);
  }
}

async function main() {
  if (!wrkVersion()) throw new Error("wrk is required (apt-get install wrk)");
  const redJs = ensureNodeRed();
  const receiver = startReceiver(join(ROOT, "bench/lib/receiver.mjs"), PORTS.receiver);
  await receiver.ready;
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const userDir = nodeRedUserDir(receiverUrl);
  await migrate(CLI, env);
  const seeded = await seedWebhooks({ cli: CLI, env, dbUrl, run, receiverUrl, signedBody: body });
  log(
    `${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ` +
      `load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(
          " ",
        )}; wrk ${CONNECTIONS} connections, ${LOAD_MS / 1000} s after ${WARMUP_MS / 1000} s of warm-up`,
  );
  const rounds = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which side goes first, so a drifting machine favours neither.
      const order =
        round % 2 ? ["hookflow", "nodeRed", "single"] : ["single", "nodeRed", "hookflow"];
      const result = {};
      for (const side of order) {
        result[side] =
          side === "nodeRed"
            ? await nodeRedRound(redJs, userDir, receiver)
            : await hookflowRound(seeded, receiver, HOOKFLOW_SIDES[side]);
      }
      result.ratio = result.hookflow.deliveredPerS / result.nodeRed.deliveredPerS;
      result.singleRatio = result.single.deliveredPerS / result.nodeRed.deliveredPerS;
      rounds.push(result);
      log(
        `round ${round}: delivered/s hookflow start / node-red = ${fmt(result.ratio, 2)}x; ` +
          `one process / node-red = ${fmt(result.singleRatio, 2)}x`,
      );
    }
  } finally {
    receiver.child.kill();
    await seeded.sql.end();
    await dropBenchDatabase(BASE_DB, run);
    await dropBenchRedisKeys(env.REDIS_URL, env.HOOKFLOW_REDIS_PREFIX);
  }
  const unbalanced = rounds.filter(
    (r) => !r.hookflow.balance.balanced || !r.single.balance.balanced,
  );
  const summary = {
    hookflowDeliveredPerS: median(rounds.map((r) => r.hookflow.deliveredPerS)),
    singleProcessDeliveredPerS: median(rounds.map((r) => r.single.deliveredPerS)),
    nodeRedDeliveredPerS: median(rounds.map((r) => r.nodeRed.deliveredPerS)),
    pairedRatio: median(rounds.map((r) => r.ratio)),
    singleProcessPairedRatio: median(rounds.map((r) => r.singleRatio)),
    nodeRedLost: rounds.map((r) => r.nodeRed.lost),
  };
  log(
    `\npeer: hookflow start ${fmt(summary.hookflowDeliveredPerS, 0)} delivered/s, ` +
      `node-red ${NODE_RED_VERSION} ${fmt(summary.nodeRedDeliveredPerS, 0)} delivered/s; paired ratio ` +
      `${fmt(summary.pairedRatio, 2)}x (target >= 2x)\n` +
      `peer: one process (--worker-processes 0) ${fmt(summary.singleProcessDeliveredPerS, 0)} delivered/s; ` +
      `paired ratio ${fmt(summary.singleProcessPairedRatio, 2)}x\n` +
      `node-red accepted but never forwarded: ${summary.nodeRedLost.join(", ")}`,
  );
  if (process.env.BENCH_PEER_DRAIN !== "0") {
    const drain = await drainComparison(QUICK ? 1 : 2);
    summary.drain = drain;
    log(
      `worker drain: hookflow ${fmt(drain.hookflow, 0)} events/s, bare BullMQ + undici ${fmt(drain.bare, 0)} jobs/s, ` +
        `paired ratio ${fmt(drain.pairedRatio * 100, 1)} % (target >= 40 %)`,
    );
  }
  process.stdout.write(`PEER_JSON ${JSON.stringify({ rounds, summary })}\n`);
  if (unbalanced.length > 0) {
    log(
      "VOID: hookflow counts did not balance:",
      JSON.stringify(unbalanced.map((r) => [r.hookflow.balance, r.single.balance])),
    );
    process.exit(1);
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
