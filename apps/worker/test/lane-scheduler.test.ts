import { createLogger } from "@hookflow/observability";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  type DeliveryQueues,
  PRIORITIES,
  type Priority,
} from "@hookflow/queue";
import { createTestRedisPrefix, type TestRedisPrefix } from "@hookflow/testing";
import { Redis } from "ioredis";
import {
  type LaneScheduler,
  type LaneWorker,
  startLaneScheduler,
} from "../src/lanes/lane-scheduler.js";

/**
 * The lane scheduler against real BullMQ lanes in Redis. Its lane workers are stand-ins holding
 * only a concurrency (the scheduler sets nothing else), so what the lanes hold stays as the test
 * put it: no worker fetches from them.
 */
describe("lane scheduler", () => {
  let prefix: TestRedisPrefix;
  let redis: Redis;
  let queues: DeliveryQueues;
  let workers: Map<Priority, LaneWorker>;
  let scheduler: LaneScheduler;
  let counted: Priority[];
  const TOTAL = 10;

  beforeEach(async () => {
    prefix = createTestRedisPrefix();
    redis = new Redis(prefix.url, { maxRetriesPerRequest: null });
    queues = createDeliveryQueues({ connection: redis, prefix: prefix.prefix });
    counted = [];
    for (const [lane, queue] of queues) {
      const read = queue.getJobCounts.bind(queue);
      queue.getJobCounts = (...types) => {
        counted.push(lane);
        return read(...types);
      };
    }
    workers = new Map(PRIORITIES.map((lane) => [lane, { concurrency: 2 }]));
    scheduler = startLaneScheduler({
      workers,
      queues,
      total: TOTAL,
      logger: createLogger({ level: "silent", role: "worker" }),
      // The test ticks by hand.
      intervalMs: 3_600_000,
    });
    const lane3 = queues.get(3);
    for (let i = 0; i < 30; i++) {
      await lane3?.add(
        "deliver",
        { eventId: `evt_${i}`, webhookId: "wh_1" },
        { jobId: `evt_${i}` },
      );
    }
  });
  afterEach(async () => {
    scheduler.stop();
    await closeDeliveryQueues(queues);
    redis.disconnect();
    await prefix.destroy();
  });

  const concurrencies = () => PRIORITIES.map((lane) => workers.get(lane)?.concurrency);

  it("reads no count of a lane that found its queue empty and has room", async () => {
    for (const lane of PRIORITIES) scheduler.drained(lane);
    scheduler.started(1);
    scheduler.drained(1);
    await scheduler.tick();
    expect(counted).toEqual([]);
    // Every lane idle as far as the process can tell: running + 1, plus an even part of the rest.
    expect(concurrencies()).toEqual([3, 2, 2, 2, 2]);
  });

  it("reads the count of a lane that started a job since it found its queue empty", async () => {
    // Lane 3 has room (1 of 2) but took a job after finding its queue empty: 30 wait behind it.
    for (const lane of PRIORITIES) scheduler.drained(lane);
    scheduler.started(3);
    await scheduler.tick();
    expect(counted).toEqual([3]);
    // Lane 3 gets every slot; the idle lanes keep one spare each on top.
    expect(concurrencies()).toEqual([1, 1, 10, 1, 1]);
    // Still read on the next tick, now that it has room: the backlog keeps its share.
    counted = [];
    await scheduler.tick();
    expect(counted).toEqual([3]);
    expect(concurrencies()).toEqual([1, 1, 10, 1, 1]);
  });

  it("reads a full lane's count even when it found its queue empty", async () => {
    for (const lane of PRIORITIES) scheduler.drained(lane);
    const done = [scheduler.started(1), scheduler.started(1)];
    scheduler.drained(1);
    await scheduler.tick();
    expect(counted).toEqual([1]);
    counted = [];
    for (const finished of done) finished();
    await scheduler.tick();
    expect(counted).toEqual([]);
  });
});
