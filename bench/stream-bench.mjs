// Stream benchmark: one stream process (the built CLI, `start --role stream`) holds K concurrent
// SSE connections, one per event; the bench then publishes two steps and `done` for every event
// through the real step publisher and measures how the fan-out keeps up. Reports open streams per
// process, RSS and heap per open stream, publish-to-done latency, and the cost of one publish.
// Then one worker (in this process) drains the same backlog with step publishing on and off,
// alternating, to show what publishing costs delivery throughput.
//
//   pnpm build && node bench/stream-bench.mjs
//   STREAM_BENCH_STREAMS=10000 node bench/stream-bench.mjs   (at most 15,000)
//   STREAM_BENCH_DRAIN=0 node bench/stream-bench.mjs         (skip the drain comparison)
//   STREAM_BENCH_DRAIN_PAIRS=6 node bench/stream-bench.mjs   (on/off round pairs, default 3)
import "./lib/workspace-node.mjs";
import { fork } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { HOOKFLOW_NODE_FLAGS } from "./lib/hookflow-node-flags.mjs";
import { startProcess, stopProcess } from "./lib/processes.mjs";
import { migrate, storePendingEvents } from "./lib/seed.mjs";
import { fmt, summarize } from "./lib/stats.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "apps/cli/dist/main.js");
const { createStepPublisher, redisKeys } = await import(join(ROOT, "packages/queue/dist/index.js"));
const { enqueueDeliveries } = await import(join(ROOT, "packages/queue/dist/index.js"));
const { Redis } = createRequire(join(ROOT, "packages/queue/package.json"))("ioredis");

const K = Math.min(15_000, Math.max(1, Number(process.env.STREAM_BENCH_STREAMS ?? 5000)));
const PUBLISH_SAMPLES = 20_000;
const PORT = Number(process.env.STREAM_BENCH_PORT ?? 18120);
/** The stream process's metrics listener (the receiver takes PORT + 1). */
const METRICS_PORT = PORT + 2;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const run = randomBytes(4).toString("hex");
const prefix = `bench_stream_${run}`;
const secret = randomBytes(32).toString("hex");
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

/** The stream token as docs/decisions.md, "Live steps, stream and sync mode" defines it (same as @hookflow/domain). */
function streamToken(eventId, expiresAtMs) {
  const claims = Buffer.from(`${eventId}.${expiresAtMs}`).toString("base64url");
  return `${claims}.${createHmac("sha256", secret).update(claims).digest("base64url")}`;
}

function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function metrics() {
  const text = await (await fetch(`http://127.0.0.1:${METRICS_PORT}/metrics`)).text();
  const read = (name) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1]);
  return {
    openStreams: read("hookflow_stream_open_streams"),
    watchers: read("hookflow_stream_hub_watchers"),
    heapUsedMb: read("nodejs_heap_size_used_bytes") / 2 ** 20,
  };
}

/** One SSE client on a raw socket: counts messages, notes when `done` arrives and the end. */
function openStream(eventId, agent) {
  return new Promise((resolve, reject) => {
    const client = { eventId, messages: 0, doneAt: 0, endedAt: 0, publishedDoneAt: 0, req: null };
    const path = `/api/events/${eventId}/stream?token=${streamToken(eventId, Date.now() + 110_000)}`;
    client.req = http.get({ host: "127.0.0.1", port: PORT, path, agent }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
      res.setEncoding("utf8");
      let opened = false;
      res.on("data", (chunk) => {
        if (!opened) {
          opened = true;
          resolve(client);
        }
        for (const match of chunk.matchAll(/^event: (\w+)$/gm)) {
          client.messages++;
          if (match[1] === "done") client.doneAt = performance.now();
        }
      });
      res.on("end", () => {
        client.endedAt = performance.now();
      });
    });
    client.req.on("error", reject);
  });
}

const DRAIN_EVENTS = 3000;
/** The first round warms the JIT, Postgres and Redis up; it is not counted. */
const DRAIN_PAIRS = Math.max(1, Number(process.env.STREAM_BENCH_DRAIN_PAIRS ?? 3));
/** A warm-up, then on/off pairs in alternating order (on-off, off-on, ...). */
const DRAIN_ROUNDS = [
  "warm-up",
  ...Array.from({ length: DRAIN_PAIRS }, (_, n) =>
    n % 2 === 0 ? ["on", "off"] : ["off", "on"],
  ).flat(),
];

/**
 * Creates and migrates a database of its own through the built CLI (bench/lib/seed.mjs); run
 * again after seeding, the migrate step seals the webhook credentials the seed wrote in clear.
 */
const migrateDatabase = (dbUrl, encryptionKey) =>
  migrate(CLI, { DATABASE_URL: dbUrl, HOOKFLOW_ENCRYPTION_KEY: encryptionKey, LOG_LEVEL: "warn" });

/** Redis server CPU (user + system) so far, in seconds. */
async function redisCpuSeconds(redis) {
  const info = await redis.info("cpu");
  const read = (name) => Number(new RegExp(`^${name}:(\\S+)`, "m").exec(info)?.[1] ?? 0);
  return read("used_cpu_user") + read("used_cpu_sys");
}

/**
 * One worker drains DRAIN_EVENTS pending events per round, with the real step reporter ("on") or
 * a no-op one ("off"); rounds alternate so background load hits both alike.
 */
async function drainComparison() {
  const statsRedis = new Redis(REDIS_URL);
  const { buildWorkerServices, startWorker } = await import(
    join(ROOT, "apps/worker/dist/index.js")
  );
  const { loadConfig } = await import(join(ROOT, "packages/config/dist/index.js"));
  const base = new URL(
    process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  );
  base.pathname = `/hookflow_streambench_${run}`;
  const dbUrl = base.toString();
  const encryptionKey = randomBytes(32).toString("hex");
  await migrateDatabase(dbUrl, encryptionKey);
  const receiverPort = PORT + 1;
  const receiver = fork(join(ROOT, "bench/lib/receiver.mjs"), [String(receiverPort)], {
    stdio: "ignore",
  });
  await new Promise((resolve) => receiver.once("message", resolve));
  const sql = postgres(dbUrl, { max: 4, onnotice: () => {} });
  const rounds = [];
  try {
    const userId = `usr_sb${run}`;
    const webhookId = `wh_sb${run}`;
    await sql`insert into users (id, email, password_hash) values (${userId}, ${`sb-${run}@example.test`}, 'x')`;
    await sql`insert into webhooks ${sql({ id: webhookId, owner_id: userId, name: "stream bench", target_url: `http://127.0.0.1:${receiverPort}/hook`, ingress_token: randomBytes(24).toString("base64url"), signing_secret: `whsec_${randomBytes(32).toString("base64")}` })}`;
    await migrateDatabase(dbUrl, encryptionKey);
    const config = loadConfig({
      NODE_ENV: "production",
      DATABASE_URL: dbUrl,
      REDIS_URL,
      HOOKFLOW_REDIS_PREFIX: `${prefix}_drain`,
      HOOKFLOW_SECRET: secret,
      HOOKFLOW_ENCRYPTION_KEY: encryptionKey,
      ALLOW_PRIVATE_TARGETS: "true",
      LOG_LEVEL: "warn",
    });
    const body = JSON.stringify({ type: "order.created", pad: "x".repeat(600) });
    for (const [index, steps] of DRAIN_ROUNDS.entries()) {
      const ids = Array.from({ length: DRAIN_EVENTS }, (_, i) => `evt_sb${run}r${index}n${i}`);
      await storePendingEvents(sql, webhookId, ids, body);
      const services = buildWorkerServices({ config });
      if (steps === "off")
        services.steps = { step() {}, done() {}, parked() {}, flush: async () => {} };
      await enqueueDeliveries(
        services.queues,
        ids.map((eventId) => ({ priority: 3, data: { eventId, webhookId } })),
      );
      const started = performance.now();
      const cpu = process.cpuUsage();
      const redisCpu = await redisCpuSeconds(statsRedis);
      const worker = await startWorker(services);
      for (;;) {
        const [{ n }] =
          await sql`select count(*)::int as n from events where id = any(${ids}) and status = 'delivered'`;
        if (n >= DRAIN_EVENTS) break;
        await sleep(50);
      }
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuUsPerEvent = (used.user + used.system) / DRAIN_EVENTS;
      const redisUsPerEvent =
        (((await redisCpuSeconds(statsRedis)) - redisCpu) * 1e6) / DRAIN_EVENTS;
      await worker.close();
      await services.close();
      rounds.push({
        steps,
        eventsPerSecond: DRAIN_EVENTS / seconds,
        cpuUsPerEvent,
        redisUsPerEvent,
      });
      log(
        `drain with steps ${steps}: ${fmt(DRAIN_EVENTS / seconds, 0)} events/s, worker CPU ${fmt(cpuUsPerEvent, 0)} us per event, Redis CPU ${fmt(redisUsPerEvent, 0)} us per event`,
      );
    }
  } finally {
    receiver.kill();
    statsRedis.disconnect();
    await sql.end();
    const admin = postgres(
      process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
      { max: 1, onnotice: () => {} },
    );
    await admin.unsafe(`drop database if exists "hookflow_streambench_${run}" with (force)`);
    await admin.end();
  }
  const median = (kind, field) => {
    const of = rounds.filter((r) => r.steps === kind).map((r) => r[field]);
    return of.sort((a, b) => a - b)[Math.floor(of.length / 2)];
  };
  const summary = {
    eventsPerSecond: { on: median("on", "eventsPerSecond"), off: median("off", "eventsPerSecond") },
    cpuUsPerEvent: { on: median("on", "cpuUsPerEvent"), off: median("off", "cpuUsPerEvent") },
    redisUsPerEvent: {
      on: median("on", "redisUsPerEvent"),
      off: median("off", "redisUsPerEvent"),
    },
  };
  log(
    `drain median: steps on ${fmt(summary.eventsPerSecond.on, 0)} events/s (${fmt(summary.cpuUsPerEvent.on, 0)} us CPU/event), off ${fmt(summary.eventsPerSecond.off, 0)} events/s (${fmt(summary.cpuUsPerEvent.off, 0)} us CPU/event); Redis CPU per event on ${fmt(summary.redisUsPerEvent.on, 0)} us, off ${fmt(summary.redisUsPerEvent.off, 0)} us`,
  );
  return { events: DRAIN_EVENTS, rounds, median: summary };
}

async function main() {
  const redis = new Redis(REDIS_URL);
  const keys = redisKeys(prefix);
  const publisher = createStepPublisher({ redis, keys });
  const proc = await startProcess({
    name: "stream",
    args: [...HOOKFLOW_NODE_FLAGS, CLI, "start", "--role", "stream"],
    env: {
      NODE_ENV: "production",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      METRICS_PORT: String(METRICS_PORT),
      REDIS_URL,
      HOOKFLOW_REDIS_PREFIX: prefix,
      HOOKFLOW_SECRET: secret,
      HOOKFLOW_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      // The bench measures how many streams a process holds: lift the default cap (10,000).
      STREAM_MAX_PER_PROCESS: String(K + 100),
      LOG_LEVEL: "warn",
    },
    healthUrl: `http://127.0.0.1:${PORT}/api/health`,
    cwd: ROOT,
  });
  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memGb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
    },
    streams: K,
  };
  try {
    await sleep(1000);
    const before = { rssMb: rssMb(proc.pid), ...(await metrics()) };

    const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
    const eventIds = Array.from({ length: K }, (_, i) => `evt_bench${run}${i}`);
    const openStarted = performance.now();
    const clients = [];
    for (let i = 0; i < K; i += 500) {
      clients.push(
        ...(await Promise.all(eventIds.slice(i, i + 500).map((id) => openStream(id, agent)))),
      );
    }
    const openSeconds = (performance.now() - openStarted) / 1000;
    await sleep(1500);
    const open = { rssMb: rssMb(proc.pid), ...(await metrics()) };
    log(
      `opened ${K} streams in ${fmt(openSeconds)} s; process reports ${open.openStreams} open, ${open.watchers} hub watchers`,
    );

    // Two steps and done per event, fire and forget as the worker publishes.
    const publishStarted = performance.now();
    const publishes = [];
    for (const client of clients) {
      const { eventId } = client;
      const at = new Date().toISOString();
      publishes.push(
        publisher.publish(eventId, {
          kind: "step",
          step: { eventId, nodeType: "delivery", nodeId: "wh_bench", status: "running", at },
        }),
      );
      publishes.push(
        publisher.publish(eventId, {
          kind: "step",
          step: {
            eventId,
            nodeType: "delivery",
            nodeId: "wh_bench",
            status: "success",
            statusCode: 200,
            durationMs: 3,
            at,
          },
        }),
      );
      client.publishedDoneAt = performance.now();
      publishes.push(
        publisher.publish(eventId, {
          kind: "done",
          done: {
            eventId,
            status: 200,
            body: { deliveryStatus: "delivered", statusCode: 200, latencyMs: 3 },
            response: '{"ok":true}',
          },
        }),
      );
    }
    await Promise.all(publishes);
    const deadline = Date.now() + 60_000;
    while (clients.some((c) => !c.endedAt) && Date.now() < deadline) await sleep(50);
    const fanoutSeconds = (performance.now() - publishStarted) / 1000;
    const ended = clients.filter((c) => c.endedAt).length;
    const complete = clients.filter((c) => c.messages === 3 && c.doneAt).length;
    const latency = summarize(
      clients.filter((c) => c.doneAt).map((c) => c.doneAt - c.publishedDoneAt),
    );
    await sleep(500);
    const after = { rssMb: rssMb(proc.pid), ...(await metrics()) };

    // The cost of one publish as the worker pays it: a few dozen messages per event-loop turn
    // (concurrent jobs), to events nobody watches. Client CPU is what delivery competes with.
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const sent = [];
    for (let i = 0; i < PUBLISH_SAMPLES; i++) {
      const eventId = `evt_pub${run}${i}`;
      const at = new Date().toISOString();
      sent.push(
        publisher.publish(eventId, {
          kind: "step",
          step: {
            eventId,
            nodeType: "delivery",
            nodeId: "wh_bench",
            status: "success",
            statusCode: 200,
            durationMs: 3,
            at,
          },
        }),
      );
      if (i % 30 === 29) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(sent);
    const publishUs = ((performance.now() - t0) * 1000) / PUBLISH_SAMPLES;
    const cpu = process.cpuUsage(cpu0);
    const publishCpuUs = (cpu.user + cpu.system) / PUBLISH_SAMPLES;
    const bufferBytes = await redis.memory("USAGE", keys.stepBuffer(eventIds[0]));

    Object.assign(results, {
      openSeconds,
      openStreamsReported: open.openStreams,
      hubWatchers: open.watchers,
      rssMb: { before: before.rssMb, open: open.rssMb, afterDone: after.rssMb },
      heapUsedMb: { before: before.heapUsedMb, open: open.heapUsedMb, afterDone: after.heapUsedMb },
      rssPerStreamKb: ((open.rssMb - before.rssMb) * 1024) / K,
      heapPerStreamKb: ((open.heapUsedMb - before.heapUsedMb) * 1024) / K,
      fanout: {
        messages: K * 3,
        seconds: fanoutSeconds,
        messagesPerSecond: (K * 3) / fanoutSeconds,
        streamsEnded: ended,
        streamsComplete: complete,
        publishToDoneMs: latency,
      },
      afterDone: { openStreams: after.openStreams, watchers: after.watchers },
      publish: {
        samples: PUBLISH_SAMPLES,
        microsecondsEach: publishUs,
        clientCpuMicrosecondsEach: publishCpuUs,
        bufferBytesPerEvent: bufferBytes,
      },
    });
    log(
      `RSS ${fmt(before.rssMb, 0)} -> ${fmt(open.rssMb, 0)} MB (${fmt(results.rssPerStreamKb)} KB per stream); heap ${fmt(before.heapUsedMb, 0)} -> ${fmt(open.heapUsedMb, 0)} MB (${fmt(results.heapPerStreamKb)} KB per stream)`,
    );
    log(
      `fan-out: ${K * 3} messages to ${K} streams in ${fmt(fanoutSeconds)} s; ${complete}/${K} complete, ${ended} ended; publish-to-done p50 ${fmt(latency.p50)} ms p99 ${fmt(latency.p99)} ms`,
    );
    log(
      `after done: ${after.openStreams} open streams, ${after.watchers} watchers; one publish ${fmt(publishUs)} us wall, ${fmt(publishCpuUs)} us client CPU; buffer ${bufferBytes} bytes per event`,
    );
    results.ok = complete === K && ended === K && after.openStreams === 0 && after.watchers === 0;
    if (process.env.STREAM_BENCH_DRAIN !== "0") results.drain = await drainComparison();
  } finally {
    await stopProcess(proc);
    let cursor = "0";
    do {
      const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (found.length > 0) await redis.unlink(...found);
    } while (cursor !== "0");
    redis.disconnect();
  }
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(
    join(ROOT, `bench/results/stream-${results.date.replace(/[:.]/g, "-")}.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
  console.log(JSON.stringify(results, null, 2));
  if (!results.ok) process.exitCode = 1;
}

await main();
