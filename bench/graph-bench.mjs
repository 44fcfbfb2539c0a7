// Graph benchmark: what a transform-heavy node graph costs delivery throughput. Two webhooks share
// one ingress process, one worker process and one receiver: `plain` (no nodes) and `graph`
// (filter -> jq transform -> JavaScript transform -> schema validator). Each round runs both, in
// alternating order (plain first in even rounds, graph first in odd ones), so background load hits
// both alike and a steady drift over the run (a busy host, growing tables) favours neither side.
// Two measurements:
//   - drain: a backlog of BENCH_GRAPH_EVENTS stored events per round gets its jobs at once and the
//     worker drains it (worker throughput alone);
//   - end to end: a closed loop of POSTs through the ingress for the phase, then until every
//     accepted event is delivered (ingress, queue, graph, signed delivery).
// Prints events/s of both paths and the ratio; the target is graph >= 70 % of plain (the graph
// costs under 30 %), set on the end-to-end measure. The drain leaves the ingress's
// share of the work out, so the graph's extra work is a larger part of the rest and its ratio
// reads lower: a stricter view of the worker, printed beside it. The ratios to read are the
// paired ones: each round's graph over the same round's plain, median over the rounds. Every
// round checks its counts balance, or the run is void.
//
//   pnpm build && node bench/graph-bench.mjs
//   BENCH_QUICK=1 node bench/graph-bench.mjs      # shorter phases
//   BENCH_CPU_PROF=1 node bench/graph-bench.mjs   # the worker writes a CPU profile
//   BENCH_ROUNDS=8 node bench/graph-bench.mjs      # more rounds (default 4; 2 when quick)
//   BENCH_CASE=actions node bench/graph-bench.mjs  # post-delivery actions instead of the graph:
//     an HTTP action and a Slack notification (detailed preset) after each delivery, both to a
//     second receiver; a round ends once every event is delivered AND both its action runs
//     ended, so the actions' work is in the measure (docs/benchmarks.md)
import "./lib/workspace-node.mjs";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { balance, counts, isSettled, waitArrivals, waitSettled } from "./lib/accounting.mjs";
import { inChild } from "./lib/drivers.mjs";
import { HOOKFLOW_NODE_FLAGS, HOOKFLOW_WORKER_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
import { cpuPerItem, snapshotCpu } from "./lib/process-cpu.mjs";
import { startProcess, stopProcess } from "./lib/processes.mjs";
import { startReceiver } from "./lib/receiver-control.mjs";
import {
  benchDatabaseUrl,
  dropBenchDatabase,
  dropBenchRedisKeys,
  migrate,
  newRunId,
  seedWebhooks,
  storePendingEvents,
} from "./lib/seed.mjs";
import { fmt, median } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const QUICK = process.env.BENCH_QUICK === "1";
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? (QUICK ? 3000 : 6000));
/** `graph` (the node graph) or `actions` (an HTTP action and a Slack notification per event). */
const CASE = process.env.BENCH_CASE === "actions" ? "actions" : "graph";
const DRAIN_EVENTS = Number(process.env.BENCH_GRAPH_EVENTS ?? (QUICK ? 2000 : 5000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 4));
const CONNECTIONS = 64;
const run = newRunId();
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = benchDatabaseUrl(BASE_DB, run);
/** BENCH_PORT_BASE moves every port (another bench may hold the defaults). */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 18203);
const PORTS = {
  ingress: PORT_BASE,
  worker: PORT_BASE + 1,
  receiver: PORT_BASE + 2,
  actions: PORT_BASE + 3,
};
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  HOOKFLOW_REDIS_PREFIX: `bench_graph_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  // Several apps run side by side: each takes a free port for its metrics listener.
  METRICS_PORT: "0",
  LOG_LEVEL: "warn",
  ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
  ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
};
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
/** BENCH_CPU_PROF=1: the worker writes a V8 CPU profile to bench/results/prof-graph-<run>. */
const PROFILE_ARGS =
  process.env.BENCH_CPU_PROF === "1"
    ? ["--cpu-prof", `--cpu-prof-dir=${join(ROOT, `bench/results/prof-graph-${run}`)}`]
    : [];

/** About 1 KB of JSON: an order with a dozen lines. */
const body = JSON.stringify({
  type: "order.created",
  data: {
    id: "ord_123",
    customer: { id: "cus_9", email: "ada@example.com" },
    items: Array.from({ length: 12 }, (_, i) => ({ sku: `SKU-${i}`, qty: i + 1, price: 19.99 })),
  },
  note: "x".repeat(300),
});

const JQ =
  "{type, orderId: .data.id, email: .data.customer.email, lines: [.data.items[] | {sku, qty, total: (.qty * .price)}]}";
const JS = `export default function transform(payload) {
  const total = payload.lines.reduce((sum, line) => sum + line.total, 0);
  return { ...payload, lineCount: payload.lines.length, total: Math.round(total * 100) / 100 };
}`;
const SCHEMA = {
  strictMode: true,
  fields: [
    { path: "type", type: "string", required: true, constraints: { enum: ["order.created"] } },
    { path: "orderId", type: "string", required: true, constraints: { pattern: "^ord_" } },
    { path: "email", type: "string", required: true, constraints: { format: "email" } },
    { path: "lines", type: "array", required: true, constraints: { minLength: 1 } },
    { path: "lineCount", type: "integer", required: true, constraints: { min: 1 } },
    { path: "total", type: "number", required: true, constraints: { min: 0 } },
  ],
};

/** Stores filter -> jq -> JavaScript -> validator on `webhookId`, as the API would. */
async function seedGraph(sql, userId, webhookId) {
  const node = async (id, family, name, config, inputs) => {
    await sql`insert into pipeline_nodes ${sql({ id, family, owner_id: userId, name, config: sql.json(config), input_nodes: sql.json(inputs) })}`;
    return { id };
  };
  const filter = await node(
    `fltn_${run}`,
    "filter",
    "orders only",
    { filterMode: "and", filters: [{ field: "type", operator: "eq", value: "order.created" }] },
    [{ nodeType: "webhook", nodeId: webhookId }],
  );
  const jq = await node(
    `trn_jq${run}`,
    "transform",
    "reshape (jq)",
    { transformMode: "jq", template: JQ },
    [{ nodeType: "filter", nodeId: filter.id }],
  );
  const js = await node(
    `trn_js${run}`,
    "transform",
    "totals (js)",
    { transformMode: "javascript", template: JS },
    [{ nodeType: "transform", nodeId: jq.id }],
  );
  await node(`sv_${run}`, "schemaValidator", "order contract", SCHEMA, [
    { nodeType: "transform", nodeId: js.id },
  ]);
}

/** Stores an HTTP action and a Slack notification after `webhookId`'s deliveries, as the API would. */
async function seedActions(sql, userId, webhookId, actionsUrl) {
  const inputs = sql.json([{ nodeType: "webhook", nodeId: webhookId }]);
  const http = {
    url: `${actionsUrl}/crm/{{payload.data.id}}`,
    method: "POST",
    headers: { "X-Order": "{{payload.data.id}}" },
    body: '{"order":"{{payload.data.id}}","email":"{{payload.data.customer.email}}","status":"{{response.status}}","event":"{{event.id}}"}',
    triggerOn: "success",
    isActive: true,
  };
  const slack = {
    platform: "slack",
    webhookUrl: `${actionsUrl}/slack`,
    templatePreset: "detailed",
    triggerOn: "always",
    isActive: true,
  };
  await sql`insert into pipeline_nodes ${sql({ id: `hta_${run}`, family: "httpAction", owner_id: userId, name: "tell the CRM", config: sql.json(http), input_nodes: inputs })}`;
  await sql`insert into pipeline_nodes ${sql({ id: `nta_${run}`, family: "notificationAction", owner_id: userId, name: "tell Slack", config: sql.json(slack), input_nodes: inputs })}`;
}

/** Waits until the webhook's action runs that ended reach `expected`. */
async function waitActionRuns(sql, webhookId, expected, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ n }] =
      await sql`select count(*)::int as n from action_runs where webhook_id = ${webhookId} and status in ('success', 'failed')`;
    if (n >= expected) return n;
    if (Date.now() > deadline) throw new Error(`action runs: ${n} of ${expected} ended`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Stores a backlog of pending events for `webhookId`, as the ingress would, without jobs yet. */
function storeBacklog(sql, webhookId, round) {
  const ids = Array.from(
    { length: DRAIN_EVENTS },
    (_, i) => `evt_gb${run}${webhookId.slice(3, 6)}r${round}n${i}`,
  );
  return storePendingEvents(sql, webhookId, ids, body);
}

async function main() {
  const { createDeliveryQueues, closeDeliveryQueues, enqueueDeliveries, redisKeys } = await import(
    join(ROOT, "packages/queue/dist/index.js")
  );
  const { createRequire } = await import("node:module");
  const { Redis } = createRequire(join(ROOT, "packages/queue/package.json"))("ioredis");
  const receiver = startReceiver(join(ROOT, "bench/lib/receiver.mjs"), PORTS.receiver);
  await receiver.ready;
  const actionsReceiver =
    CASE === "actions" ? startReceiver(join(ROOT, "bench/lib/receiver.mjs"), PORTS.actions) : null;
  await actionsReceiver?.ready;
  await migrate(CLI, { ...env });
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const seeded = await seedWebhooks({
    cli: CLI,
    env,
    dbUrl,
    run,
    receiverUrl,
    signedBody: body,
  });
  // The seed's `bad` webhook carries the graph here (this bench has no bad-receiver phase).
  const { sql, plain, bad: graph } = seeded;
  const [{ owner_id: userId }] = await sql`select owner_id from webhooks where id = ${graph.id}`;
  if (CASE === "actions") {
    await seedActions(sql, userId, graph.id, `http://127.0.0.1:${PORTS.actions}`);
  } else {
    await seedGraph(sql, userId, graph.id);
  }
  /** Runs each delivered event of the measured side fires (0 for plain delivery). */
  const runsPerEvent = (webhook) => (CASE === "actions" && webhook === graph ? 2 : 0);
  const actionsSettled = async (webhook) => {
    if (runsPerEvent(webhook) === 0) return;
    const { delivered } = await counts(sql, webhook.id);
    await waitActionRuns(sql, webhook.id, delivered * runsPerEvent(webhook));
  };
  const bull = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const queues = createDeliveryQueues({
    connection: bull,
    prefix: redisKeys(env.HOOKFLOW_REDIS_PREFIX).bullPrefix,
  });
  const procs = [];
  const rounds = [];
  const balances = [];
  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    bodyBytes: Buffer.byteLength(body),
    case: CASE,
    graph:
      CASE === "actions"
        ? "plain delivery, then an HTTP action (JSON template body) and a Slack notification (detailed preset)"
        : "filter -> jq transform -> JavaScript transform -> schema validator",
  };
  try {
    const ingress = await startProcess({
      name: "ingress",
      args: [...HOOKFLOW_NODE_FLAGS, CLI, "start", "--role", "ingress"],
      env: { ...env, PORT: String(PORTS.ingress) },
      healthUrl: `http://127.0.0.1:${PORTS.ingress}/api/health`,
      cwd: ROOT,
    });
    procs.push(ingress);
    const startWorker = () =>
      startProcess({
        name: "worker",
        args: [...HOOKFLOW_WORKER_NODE_FLAGS, ...PROFILE_ARGS, CLI, "start", "--role", "worker"],
        env: { ...env, PORT: String(PORTS.worker) },
        healthUrl: `http://127.0.0.1:${PORTS.worker}/api/health`,
        cwd: ROOT,
      });

    // Warm-up: the sandboxes and jq threads start on first use; neither path is measured here.
    const worker = await startWorker();
    procs.push(worker);
    for (const webhook of [plain, graph]) {
      const pre = await counts(sql, webhook.id);
      const r = await inChild("closed", {
        url: `http://127.0.0.1:${PORTS.ingress}`,
        path: `/api/in/${webhook.token}`,
        body,
        connections: 16,
        durationMs: 1500,
      });
      await waitSettled(sql, webhook.id, pre.total + r.ok, 120_000);
      await actionsSettled(webhook);
    }

    for (let round = 0; round < ROUNDS; round++) {
      const paths = [
        ["plain", plain],
        [CASE, graph],
      ];
      // Alternating order: under a steady drift the side that runs second in a round gains or
      // loses a little, and alternation hands that to each side in turn.
      if (round % 2 === 1) paths.reverse();
      for (const [name, webhook] of paths) {
        // Drain: a stored backlog gets its jobs all at once; the running worker drains it.
        const pre = await counts(sql, webhook.id);
        const arrived = await receiver.count();
        const ids = await storeBacklog(sql, webhook.id, round);
        const cpuGroups = {
          worker: { pid: worker.pid },
          redis: { comm: /^redis-server/ },
          postgres: { comm: /^postgres/ },
          receiver: { pid: receiver.child.pid },
        };
        const cpuBefore = snapshotCpu(cpuGroups);
        const started = performance.now();
        await enqueueDeliveries(
          queues,
          ids.map((eventId) => ({ priority: 3, data: { eventId, webhookId: webhook.id } })),
        );
        // The receiver is polled until the last delivery arrives, then Postgres briefly until the
        // last attempt is recorded: the bench's own queries stay out of the measured CPU.
        await waitArrivals(receiver, arrived + ids.length, 600_000, () =>
          isSettled(sql, webhook.id, pre.total + ids.length),
        );
        const settled = await waitSettled(sql, webhook.id, pre.total + ids.length, 600_000, 10);
        await actionsSettled(webhook);
        const drainSeconds = (performance.now() - started) / 1000;
        const drainCpuUs = cpuPerItem(cpuBefore, snapshotCpu(cpuGroups), ids.length);
        balances.push(balance(`${name} drain ${round}`, pre.total + ids.length, settled));

        // End to end: POSTs through the ingress while the worker delivers.
        const before = await counts(sql, webhook.id);
        const arrivedBefore = await receiver.count();
        const loopStarted = performance.now();
        const r = await inChild("closed", {
          url: `http://127.0.0.1:${PORTS.ingress}`,
          path: `/api/in/${webhook.token}`,
          body,
          connections: CONNECTIONS,
          durationMs: PHASE_MS,
        });
        await waitArrivals(receiver, arrivedBefore + r.ok, 600_000, () =>
          isSettled(sql, webhook.id, before.total + r.ok),
        );
        const after = await waitSettled(sql, webhook.id, before.total + r.ok, 600_000, 10);
        await actionsSettled(webhook);
        const e2eSeconds = (performance.now() - loopStarted) / 1000;
        balances.push(
          balance(`${name} e2e ${round}`, before.total + r.ok, after, r.unansweredAtMost ?? 0),
        );
        const row = {
          name,
          round,
          drainEventsPerSecond: (settled.delivered - pre.delivered) / drainSeconds,
          e2eDeliveredPerSecond: (after.delivered - before.delivered) / e2eSeconds,
          ingressRps: r.rps,
          failed: after.failed,
          drainCpuUsPerEvent: drainCpuUs,
          drainCpuUsTotal: totalCpu(drainCpuUs),
        };
        rounds.push(row);
        log(
          `${name} round ${round}: drain ${fmt(row.drainEventsPerSecond, 0)} events/s, end to end ${fmt(row.e2eDeliveredPerSecond, 0)} delivered/s (ingress ${fmt(r.rps, 0)} req/s)`,
        );
        log(
          `  drain CPU per event (us): ${Object.entries(drainCpuUs)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ")}`,
        );
        await receiver.drain();
        await actionsReceiver?.drain();
      }
    }
  } finally {
    for (const p of procs.reverse()) await stopProcess(p);
    receiver.child.kill();
    actionsReceiver?.child.kill();
    await closeDeliveryQueues(queues);
    bull.disconnect();
    await sql.end();
    await dropBenchDatabase(BASE_DB, run);
    await dropBenchRedisKeys(env.REDIS_URL, env.HOOKFLOW_REDIS_PREFIX);
  }

  const of = (name, field) => median(rounds.filter((r) => r.name === name).map((r) => r[field]));
  const summary = {
    drain: {
      plain: of("plain", "drainEventsPerSecond"),
      graph: of(CASE, "drainEventsPerSecond"),
    },
    e2e: {
      plain: of("plain", "e2eDeliveredPerSecond"),
      graph: of(CASE, "e2eDeliveredPerSecond"),
    },
  };
  summary.drain.ratio = summary.drain.graph / summary.drain.plain;
  summary.e2e.ratio = summary.e2e.graph / summary.e2e.plain;
  summary.cpu = { plain: of("plain", "drainCpuUsTotal"), graph: of(CASE, "drainCpuUsTotal") };
  summary.cpu.ratio = summary.cpu.plain / summary.cpu.graph;
  // Each graph round over the same round's plain (run just before or just after it): drift over
  // the run (a warming cache, growing tables, other work on the machine) hits both sides of a pair
  // nearly alike, and the alternating order cancels what is left of a steady drift.
  const pairRatios = (field) =>
    rounds
      .filter((r) => r.name === CASE)
      .map((g) => g[field] / rounds.find((p) => p.name === "plain" && p.round === g.round)[field]);
  summary.pairs = {
    drain: pairRatios("drainEventsPerSecond"),
    e2e: pairRatios("e2eDeliveredPerSecond"),
  };
  summary.paired = { drain: median(summary.pairs.drain), e2e: median(summary.pairs.e2e) };
  Object.assign(results, { rounds, summary, balances, void: balances.some((b) => !b.balanced) });
  log(
    `drain (worker alone), median: plain ${fmt(summary.drain.plain, 0)} events/s, ${CASE} ${fmt(summary.drain.graph, 0)} events/s, ratio ${fmt(100 * summary.drain.ratio, 1)}% (${CASE} costs ${fmt(100 * (1 - summary.drain.ratio), 1)}%)`,
  );
  log(
    `end to end, median: plain ${fmt(summary.e2e.plain, 0)} delivered/s, ${CASE} ${fmt(summary.e2e.graph, 0)} delivered/s, ratio ${fmt(100 * summary.e2e.ratio, 1)}% (${CASE} costs ${fmt(100 * (1 - summary.e2e.ratio), 1)}%)`,
  );
  log(
    `paired rounds, median of ${CASE} / plain: drain ${fmt(100 * summary.paired.drain, 1)}%, end to end ${fmt(100 * summary.paired.e2e, 1)}%`,
  );
  const percents = (ratios) => ratios.map((r) => `${fmt(100 * r, 1)}%`).join(", ");
  log(
    `  each round: drain ${percents(summary.pairs.drain)}; end to end ${percents(summary.pairs.e2e)}`,
  );
  // A cross-check of the throughput ratio: plain's CPU per event (every process) over the graph's
  // is the ratio the CPU alone allows, when the machine is CPU-bound.
  log(
    `CPU per drained event, all processes, median: plain ${fmt(summary.cpu.plain, 0)} µs, ${CASE} ${fmt(summary.cpu.graph, 0)} µs, ratio ${fmt(100 * summary.cpu.ratio, 1)}%`,
  );
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  const file = join(ROOT, `bench/results/${CASE}-${results.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  if (results.void) {
    log("VOID: counts did not balance:", JSON.stringify(balances.filter((b) => !b.balanced)));
    process.exit(1);
  }
  log(`results written to ${file}`);
}

/** CPU of every process of the run per event: the worker and its sandboxes, Redis, Postgres, receiver. */
function totalCpu(cpu) {
  return ["worker", "worker children", "redis", "postgres", "receiver", "receiver children"].reduce(
    (sum, name) => sum + (cpu[name] ?? 0),
    0,
  );
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
