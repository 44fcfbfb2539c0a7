import { createTestRedisPrefix, type TestRedisPrefix } from "@hookflow/testing";
import { type Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import { DELIVER_JOB, type DeliverJobData, jobIdOf } from "./deliver-job.js";
import {
  closeDeliveryQueues,
  createDeliveryQueues,
  type DeliveryQueues,
} from "./delivery-queues.js";
import { enqueueResume } from "./enqueue-deliveries.js";
import { deliveryQueueName } from "./lanes.js";
import { resumeParkNow } from "./park-resume.js";

const HOUR = 3_600_000;

const jobIdOfPark = (parkId: string) => jobIdOf({ eventId: "evt_x", webhookId: "wh_x", parkId });

function lane(queues: DeliveryQueues, priority: number): Queue<DeliverJobData> {
  const queue = [...queues.values()].find((q) => q.name === deliveryQueueName(priority));
  if (!queue) throw new Error(`no lane ${priority}`);
  return queue;
}

/** Where the park's job is, lane by lane. */
async function statesOf(queues: DeliveryQueues, parkId: string): Promise<Record<string, string>> {
  const states: Record<string, string> = {};
  for (const queue of queues.values()) {
    const state = await queue.getJobState(jobIdOfPark(parkId));
    if (state !== "unknown") states[queue.name] = state;
  }
  return states;
}

describe("resumeParkNow", () => {
  let prefix: TestRedisPrefix;
  let redis: Redis;
  let queues: DeliveryQueues;
  let counter = 0;
  let caseNumber = 0;
  let bullPrefix = "";
  const park = () => {
    counter += 1;
    const parkId = `park_${counter}`;
    return { parkId, eventId: `evt_${counter}`, webhookId: "wh_1" };
  };

  beforeAll(() => {
    prefix = createTestRedisPrefix();
    redis = new Redis(prefix.url, { maxRetriesPerRequest: null });
  });
  // Every case gets lanes of its own, so no job of one case is seen by another.
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

  it("promotes the delayed timeout job of the park so it runs now", async () => {
    const ids = park();
    await enqueueResume(queues, { ...ids, priority: 2, delayMs: HOUR });
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p2": "delayed" });

    expect(await resumeParkNow(queues, { ...ids, priority: 2 })).toBe("promoted");
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p2": "waiting" });
    const job = await lane(queues, 2).getJob(jobIdOfPark(ids.parkId));
    expect(job?.data).toEqual(ids);
  });

  it("adds a job to the priority lane when the park has none", async () => {
    const ids = park();
    expect(await resumeParkNow(queues, { ...ids, priority: 4 })).toBe("added");
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p4": "waiting" });
    const job = await lane(queues, 4).getJob(jobIdOfPark(ids.parkId));
    expect(job?.name).toBe(DELIVER_JOB);
    expect(job?.data).toEqual(ids);
  });

  it("leaves a job that is already waiting alone", async () => {
    const ids = park();
    await enqueueResume(queues, { ...ids, priority: 3 });
    expect(await resumeParkNow(queues, { ...ids, priority: 3 })).toBe("queued");
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p3": "waiting" });
  });

  it("promotes the job in the lane that holds it when the priority changed since parking", async () => {
    const ids = park();
    await enqueueResume(queues, { ...ids, priority: 5, delayMs: HOUR });
    expect(await resumeParkNow(queues, { ...ids, priority: 1 })).toBe("promoted");
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p5": "waiting" });
  });

  it("replaces a finished job left under the park's id", async () => {
    const ids = park();
    const queue = lane(queues, 3);
    await queue.add(DELIVER_JOB, ids, {
      jobId: jobIdOfPark(ids.parkId),
      attempts: 1,
      removeOnFail: false,
    });
    const job = await queue.getJob(jobIdOfPark(ids.parkId));
    if (!job) throw new Error("job not added");
    // Fail it by hand, as a worker would, without running a processor.
    const worker = new Worker(queue.name, null, {
      connection: redis,
      prefix: bullPrefix,
    });
    try {
      const token = "test-token";
      const taken = await worker.getNextJob(token);
      expect(taken?.id).toBe(jobIdOfPark(ids.parkId));
      await taken?.moveToFailed(new Error("boom"), token, false);
    } finally {
      await worker.close();
    }
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p3": "failed" });

    expect(await resumeParkNow(queues, { ...ids, priority: 3 })).toBe("added");
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p3": "waiting" });
  });

  it("does nothing to a job a worker is running, which reads the decision itself", async () => {
    const ids = park();
    await enqueueResume(queues, { ...ids, priority: 1 });
    const workerConnection = new Redis(prefix.url, { maxRetriesPerRequest: null });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = new Worker<DeliverJobData>(
      deliveryQueueName(1),
      async () => {
        started();
        await held;
      },
      { connection: workerConnection, prefix: bullPrefix },
    );
    try {
      await running;
      expect(await resumeParkNow(queues, { ...ids, priority: 1 })).toBe("running");
      expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p1": "active" });
    } finally {
      release();
      await worker.close();
      workerConnection.disconnect();
    }
  });

  it("promotes once when two decisions race for the same delayed job", async () => {
    const ids = park();
    await enqueueResume(queues, { ...ids, priority: 2, delayMs: HOUR });
    const outcomes = await Promise.all([
      resumeParkNow(queues, { ...ids, priority: 2 }),
      resumeParkNow(queues, { ...ids, priority: 2 }),
    ]);
    expect(outcomes.sort()).toEqual(["promoted", "queued"]);
    expect(await statesOf(queues, ids.parkId)).toEqual({ "deliver-p2": "waiting" });
  });
});
