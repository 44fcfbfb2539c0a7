import { createTestRedisPrefix, startRedisServer, type TestRedisPrefix } from "@hookflow/testing";
import { type Job, type Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { DELIVER_JOB, type DeliverJobData } from "./deliver-job.js";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  type DeliveryQueues,
} from "./delivery-queues.js";
import { enqueueDeliveries } from "./enqueue-deliveries.js";
import type { Priority } from "./lanes.js";
import { batchedAddsAvailable } from "./standard-job-batch.js";

const delivery = (n: number, priority = 3, delayMs?: number) => ({
  priority,
  data: { eventId: `evt_${n}`, webhookId: "wh_1" },
  ...(delayMs ? { delayMs } : {}),
});

describe("enqueueDeliveries", () => {
  let prefix: TestRedisPrefix;
  let redis: Redis;
  let queues: DeliveryQueues;
  let bullPrefix = "";
  let caseNumber = 0;
  const lane = (priority: Priority): Queue<DeliverJobData> => {
    const queue = queues.get(priority);
    if (!queue) throw new Error(`no lane ${priority}`);
    return queue;
  };

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    redis = new Redis(prefix.url, { maxRetriesPerRequest: null });
  });
  beforeEach(() => {
    caseNumber += 1;
    bullPrefix = `${prefix.prefix}_${caseNumber}`;
    queues = createDeliveryQueues({ connection: redis, prefix: bullPrefix });
  });
  afterEach(async () => {
    await closeDeliveryQueues(queues);
  });
  afterAll(async () => {
    redis.disconnect();
    await prefix.destroy();
  });

  it("loads BullMQ's own addStandardJob script for batched adds", () => {
    expect(batchedAddsAvailable).toBe(true);
  });

  it("stores each job exactly as addBulk stores it: same hash fields, waiting, announced", async () => {
    await enqueueDeliveries(queues, [delivery(1)]);
    await lane(3).addBulk([
      { name: DELIVER_JOB, data: delivery(2).data, opts: { jobId: "evt_2" } },
    ]);
    const key = (id: string) => `${bullPrefix}:deliver-p3:${id}`;
    const [batched, bulk] = await Promise.all([
      redis.hgetall(key("evt_1")),
      redis.hgetall(key("evt_2")),
    ]);
    const comparable = (hash: Record<string, string>) => {
      const { timestamp, data, ...rest } = hash;
      return { ...rest, opts: JSON.parse(hash.opts ?? "{}"), hasTimestamp: Number(timestamp) > 0 };
    };
    expect(comparable(batched)).toEqual({
      ...comparable(bulk),
      opts: { ...JSON.parse(bulk.opts ?? "{}"), jobId: "evt_1" },
    });
    expect(JSON.parse(batched.data ?? "")).toEqual(delivery(1).data);
    expect(await lane(3).getJobState("evt_1")).toBe("waiting");
    const events = await redis.xrange(`${bullPrefix}:deliver-p3:events`, "-", "+");
    const announced = events
      .filter(([, fields]) => fields.includes("evt_1"))
      .map(([, fields]) => fields[1]);
    expect(announced).toEqual(["added", "waiting"]);
  });

  it("keeps one live job per event when the same event is enqueued twice", async () => {
    await enqueueDeliveries(queues, [delivery(1), delivery(2)]);
    await enqueueDeliveries(queues, [delivery(1)]);
    expect(await lane(3).getJobCounts("waiting")).toEqual({ waiting: 2 });
  });

  it("sorts jobs into their lanes and delays the ones with a delay", async () => {
    await enqueueDeliveries(queues, [delivery(1, 1), delivery(2, 5), delivery(3, 5, 60_000)]);
    expect(await lane(1).getJobState("evt_1")).toBe("waiting");
    expect(await lane(5).getJobState("evt_2")).toBe("waiting");
    expect(await lane(5).getJobState("evt_3")).toBe("delayed");
  });

  it("stores batches larger than one script call, every job of them", async () => {
    const many = Array.from({ length: 600 }, (_, n) => delivery(n));
    await enqueueDeliveries(queues, many);
    expect(await lane(3).getJobCounts("waiting")).toEqual({ waiting: 600 });
  });

  it("hands the jobs to a worker in the order they were enqueued", async () => {
    await enqueueDeliveries(
      queues,
      Array.from({ length: 20 }, (_, n) => delivery(n)),
    );
    const seen: string[] = [];
    const connection = redis.duplicate();
    const done = new Promise<void>((resolve) => {
      const worker = new Worker<DeliverJobData>(
        "deliver-p3",
        async (job: Job<DeliverJobData>) => {
          seen.push(job.data.eventId);
          if (seen.length === 20) void worker.close().then(resolve);
        },
        { connection, prefix: bullPrefix, concurrency: 1 },
      );
    });
    await done;
    connection.disconnect();
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => `evt_${n}`));
  });

  it("keeps adding after Redis restarted empty and forgot the script", async () => {
    const server = await startRedisServer();
    const own = new Redis(server.url, { maxRetriesPerRequest: null });
    const ownQueues = createDeliveryQueues({ connection: own, prefix: "restart" });
    // The restart resets the connection; that is the point, not a failure.
    own.on("error", () => {});
    for (const queue of ownQueues.values()) queue.on("error", () => {});
    try {
      await enqueueDeliveries(ownQueues, [delivery(1)]);
      await server.kill();
      await server.start();
      await own.ping();
      await enqueueDeliveries(ownQueues, [delivery(2)]);
      const lane3 = ownQueues.get(3);
      expect(await lane3?.getJobState("evt_2")).toBe("waiting");
      expect(await lane3?.getJobState("evt_1")).toBe("unknown");
    } finally {
      await closeDeliveryQueues(ownQueues);
      own.disconnect();
      await server.close();
    }
  });
});
