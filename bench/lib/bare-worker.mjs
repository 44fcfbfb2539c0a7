// The bare baseline of a delivery worker: one BullMQ Worker whose processor posts each job's body
// with undici to the receiver and nothing else (no database, no signing, no steps, no logs). Its
// jobs/s is what BullMQ, ioredis and undici cost on this machine: the ceiling a real worker is
// measured against. argv: queueName, prefix, concurrency; env REDIS_URL.
import { createRequire } from "node:module";

const fromQueue = createRequire(new URL("../../packages/queue/package.json", import.meta.url));
const fromRoot = createRequire(new URL("../../package.json", import.meta.url));
const { Worker } = fromQueue("bullmq");
const { Redis } = fromQueue("ioredis");
const { Agent, request } = fromRoot("undici");

const [queueName, prefix, concurrency] = process.argv.slice(2);
const connection = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: null });
const agent = new Agent({ connections: 256, keepAliveTimeout: 4_000 });
const target = process.env.BARE_TARGET_URL;

const worker = new Worker(
  queueName,
  async (job) => {
    const response = await request(target, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hookflow-event-id": job.data.eventId },
      body: job.data.body,
      dispatcher: agent,
    });
    await response.body.text();
    if (response.statusCode >= 300) throw new Error(`HTTP ${response.statusCode}`);
  },
  { connection, prefix, concurrency: Number(concurrency) },
);
worker.on("error", (error) => process.stderr.write(`bare worker: ${error}\n`));
process.send?.({ type: "ready" });
process.on("SIGTERM", async () => {
  await worker.close();
  await agent.close();
  connection.disconnect();
  process.exit(0);
});
