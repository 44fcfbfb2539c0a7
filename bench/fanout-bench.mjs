// Fan-out and chain benchmark: what additional targets and chains cost the worker, in delivered
// requests per second against plain delivery. One worker process, one receiver, three webhooks:
//   - plain: one request per event;
//   - fanout: the webhook's own target plus three additional targets (4 requests per event);
//   - chain: a webhook chained to two more (3 events and 3 requests per ingress event).
// Each round stores a backlog of BENCH_FANOUT_EVENTS pending events per case (as the ingress
// would), enqueues their jobs at once and times until the receiver has every request; cases run
// in alternating order per round. Prints requests/s and ingress events/s per case, medians over
// the rounds, and each case's requests/s over plain's.
//
//   pnpm build && node bench/fanout-bench.mjs
//   BENCH_FANOUT_EVENTS=2000 BENCH_ROUNDS=4 node bench/fanout-bench.mjs
import "./lib/workspace-node.mjs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitArrivals } from "./lib/accounting.mjs";
import { HOOKFLOW_WORKER_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
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
const EVENTS = Number(process.env.BENCH_FANOUT_EVENTS ?? 500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const run = newRunId();
const BASE_DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = benchDatabaseUrl(BASE_DB, run);
const PORTS = { worker: 18224, receiver: 18225 };
const env = {
  NODE_ENV: "production",
  DATABASE_URL: dbUrl,
  REDIS_URL: process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  HOOKFLOW_REDIS_PREFIX: `bench_fanout_${run}`,
  HOOKFLOW_SECRET: randomBytes(32).toString("hex"),
  HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  ALLOW_PRIVATE_TARGETS: "true",
  METRICS_PORT: "0",
  LOG_LEVEL: "warn",
};
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);
const body = JSON.stringify({ type: "order.created", data: { id: "ord_1", total: 42.5 } });

/** Stores the extra webhooks and targets of the fan-out and chain cases (sealed by `migrate`). */
async function seedCases(sql, userId, receiverUrl) {
  const webhook = async (name, extra = {}) => {
    const id = `wh_${name}${run}`;
    await sql`insert into webhooks ${sql({ id, owner_id: userId, name, target_url: receiverUrl, ingress_token: randomBytes(24).toString("base64url"), signing_secret: `whsec_${randomBytes(32).toString("base64")}`, max_retries: 20, retry_delay_seconds: 10, ...extra })}`;
    return id;
  };
  const fanout = await webhook("fanout");
  for (const n of [1, 2, 3]) {
    await sql`insert into additional_targets ${sql({ id: `tgt_${run}${n}`, owner_id: userId, name: `target ${n}`, url: receiverUrl, input_nodes: sql.json([{ nodeType: "webhook", nodeId: fanout }]), ...(n === 3 ? { payload_transform: '{"id": "{{data.id}}", "total": "{{data.total}}"}' } : {}) })}`;
  }
  const step2 = await webhook("chainc");
  const step1 = await webhook("chainb");
  const chain = await webhook("chaina", { chain_webhook_ids: sql.array([step1, step2]) });
  return { fanout, chain };
}

function storeBacklog(sql, webhookId, tag) {
  const ids = Array.from({ length: EVENTS }, (_, i) => `evt_fo${run}${tag}n${i}`);
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
  await migrate(CLI, { ...env });
  const receiverUrl = `http://127.0.0.1:${PORTS.receiver}/hook`;
  const { sql, plain } = await seedWebhooks({
    cli: CLI,
    env,
    dbUrl,
    run,
    receiverUrl,
    signedBody: body,
  });
  const [{ owner_id: userId }] = await sql`select owner_id from webhooks where id = ${plain.id}`;
  const seeded = await seedCases(sql, userId, receiverUrl);
  await migrate(CLI, { ...env });
  const cases = [
    { name: "plain", webhookId: plain.id, requestsPerEvent: 1 },
    { name: "fanout", webhookId: seeded.fanout, requestsPerEvent: 4 },
    { name: "chain", webhookId: seeded.chain, requestsPerEvent: 3 },
  ];
  const bull = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
  const queues = createDeliveryQueues({
    connection: bull,
    prefix: redisKeys(env.HOOKFLOW_REDIS_PREFIX).bullPrefix,
  });
  let worker;
  const samples = new Map(cases.map((c) => [c.name, []]));
  try {
    worker = await startProcess({
      name: "worker",
      args: [...HOOKFLOW_WORKER_NODE_FLAGS, CLI, "start", "--role", "worker"],
      env: { ...env, PORT: String(PORTS.worker) },
      healthUrl: `http://127.0.0.1:${PORTS.worker}/api/health`,
      cwd: ROOT,
    });
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? cases : [...cases].reverse();
      for (const c of order) {
        const ids = await storeBacklog(sql, c.webhookId, `${c.name}${round}`);
        const arrived = await receiver.count();
        const expected = arrived + ids.length * c.requestsPerEvent;
        const started = performance.now();
        await enqueueDeliveries(
          queues,
          ids.map((eventId) => ({ priority: 3, data: { eventId, webhookId: c.webhookId } })),
        );
        await waitArrivals(receiver, expected, 300_000);
        const got = await receiver.count();
        if (got < expected)
          throw new Error(`${c.name}: ${got - arrived} of ${expected - arrived} requests arrived`);
        const seconds = (performance.now() - started) / 1000;
        const sample = {
          requestsPerSecond: (got - arrived) / seconds,
          eventsPerSecond: ids.length / seconds,
        };
        samples.get(c.name).push(sample);
        log(
          `${c.name} round ${round}: ${fmt(sample.requestsPerSecond, 0)} requests/s, ${fmt(sample.eventsPerSecond, 0)} ingress events/s`,
        );
        await receiver.drain();
      }
    }
  } finally {
    if (worker) await stopProcess(worker);
    receiver.child.kill();
    await closeDeliveryQueues(queues);
    bull.disconnect();
    await sql.end();
    await dropBenchDatabase(BASE_DB, run);
    await dropBenchRedisKeys(env.REDIS_URL, env.HOOKFLOW_REDIS_PREFIX);
  }
  const plainRps = median(samples.get("plain").map((s) => s.requestsPerSecond));
  const summary = cases.map((c) => {
    const list = samples.get(c.name);
    const rps = median(list.map((s) => s.requestsPerSecond));
    return {
      name: c.name,
      requestsPerSecond: Math.round(rps),
      eventsPerSecond: Math.round(median(list.map((s) => s.eventsPerSecond))),
      requestsVsPlain: Number((rps / plainRps).toFixed(2)),
    };
  });
  console.log(JSON.stringify({ events: EVENTS, rounds: ROUNDS, summary }, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
