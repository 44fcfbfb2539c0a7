import { eventParks, events, users } from "@hookflow/db";
import { newId, newPrefixedId } from "@hookflow/domain";
import { createLogger, type Logger } from "@hookflow/observability";
import { enqueueResume, jobIdOf } from "@hookflow/queue";
import {
  createTestDatabase,
  createTestRedisPrefix,
  insertWebhookFixture,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";
import type { WorkerServices } from "../../src/services.js";
import { createRedisLease } from "../../src/sweeper/redis-lease.js";
import { type Sweeper, startSweeper } from "../../src/sweeper/sweeper.js";
import { buildTestWorkerServices } from "../harness.js";

// No lane workers run here: jobs stay where the test puts them, so what the sweeper finds and
// does is all there is to see.

const BATCH = 3;

let database: TestDatabase;
let redis: TestRedisPrefix;
let services: WorkerServices;
let ownerId: string;
let leaseCount = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  redis = createTestRedisPrefix();
  // Delays at their real scale: the parks' due times here are set by the test.
  services = buildTestWorkerServices(database, redis, { HOOKFLOW_DELAY_SCALE: "1" });
  ownerId = newId("user");
  await database.db.insert(users).values({
    id: ownerId,
    email: `${ownerId.toLowerCase()}@example.test`,
    passwordHash: "unusable",
  });
});

afterAll(async () => {
  await services.close();
  await database.destroy();
  await redis.destroy();
});

/** A logger that keeps the messages of its warnings. */
function capturingLogger(): { logger: Logger; warnings: string[] } {
  const logger = createLogger({ level: "silent", role: "worker" });
  const warnings: string[] = [];
  logger.warn = ((obj: unknown, msg?: string) => {
    warnings.push(typeof obj === "string" ? obj : (msg ?? ""));
  }) as Logger["warn"];
  return { logger, warnings };
}

/** A sweeper that never ticks by itself; `tick` runs one sweep (its lease is freed first). */
function testSweeper(logger: Logger): { sweeper: Sweeper; tick: () => Promise<number> } {
  leaseCount += 1;
  const key = `${redis.prefix}:test-lease:${leaseCount}`;
  const sweeper = startSweeper({
    db: database.db,
    queues: services.queues,
    lease: createRedisLease(services.redis, key),
    logger,
    settings: { intervalMs: 3_600_000, graceMs: 1_000, batchSize: BATCH },
    now: () => new Date(),
    approvals: { graphs: services.pipeline.graphs, notifier: services.pipeline.approvals },
  });
  return {
    sweeper,
    tick: async () => {
      await services.redis.del(key);
      return sweeper.sweepOnce();
    },
  };
}

async function createWebhook() {
  const { row } = await insertWebhookFixture(database.db, {
    ownerId,
    name: "park sweep",
    targetUrl: "http://127.0.0.1:9/unused",
  });
  return row;
}

/** A delayed event with one waiting delay park that became due `overdueMs` ago. */
async function overduePark(webhook: { id: string; priority: number }, overdueMs: number) {
  const eventId = newId("event");
  const now = Date.now();
  await database.db.insert(events).values({
    id: eventId,
    webhookId: webhook.id,
    status: "pending",
    body: "{}",
    priority: webhook.priority,
    delayed: true,
    pipelineRun: eventId,
    nextAttemptAt: null,
  });
  const parkId = newPrefixedId("prk");
  await database.db.insert(eventParks).values({
    id: parkId,
    eventId,
    webhookId: webhook.id,
    nodeType: "delay-node",
    nodeId: newPrefixedId("dly"),
    kind: "delay",
    runId: eventId,
    payload: "{}",
    status: "waiting",
    resumeAt: new Date(now - overdueMs),
  });
  return { eventId, webhookId: webhook.id, parkId, priority: webhook.priority };
}

async function jobStateOf(park: { eventId: string; webhookId: string; parkId?: string }) {
  const jobId = jobIdOf(park);
  for (const queue of services.queues.values()) {
    const state = await queue.getJobState(jobId);
    if (state !== "unknown") return state;
  }
  return "unknown";
}

describe("the park sweep", () => {
  it("walks past a backlog of overdue parks that have jobs to re-queue one that lost its job", async () => {
    const { logger } = capturingLogger();
    const { sweeper, tick } = testSweeper(logger);
    try {
      const webhook = await createWebhook();
      // More overdue parks with a live (waiting) job than one sweep examines, all older than the
      // lost one, so a sweep that always started from the oldest would never reach it.
      const alive = [];
      for (let i = 0; i < BATCH * 2 + 1; i++) {
        const park = await overduePark(webhook, 60_000 - i);
        await enqueueResume(services.queues, park);
        alive.push(park);
      }
      const lost = await overduePark(webhook, 30_000);

      expect(await tick()).toBe(0);
      expect(await jobStateOf(lost)).toBe("unknown");
      let ticks = 1;
      while ((await jobStateOf(lost)) === "unknown" && ticks < 4) {
        await tick();
        ticks += 1;
      }
      expect(await jobStateOf(lost)).toBe("waiting");
      expect(ticks).toBeLessThanOrEqual(3);
      for (const park of alive) expect(await jobStateOf(park)).toBe("waiting");
    } finally {
      await sweeper.stop();
    }
  });

  it("promotes the still-delayed job of an overdue park so it runs now", async () => {
    const { logger } = capturingLogger();
    const { sweeper, tick } = testSweeper(logger);
    try {
      const webhook = await createWebhook();
      const park = await overduePark(webhook, 30_000);
      await enqueueResume(services.queues, { ...park, delayMs: 3_600_000 });
      expect(await jobStateOf(park)).toBe("delayed");
      // Other tests' parks may share the page; several ticks cover them all.
      for (let i = 0; i < 5 && (await jobStateOf(park)) === "delayed"; i++) await tick();
      expect(await jobStateOf(park)).toBe("waiting");
    } finally {
      await sweeper.stop();
    }
  });

  it("still runs the event sweep when the park sweep fails, and logs each failure", async () => {
    const { logger, warnings } = capturingLogger();
    const { sweeper, tick } = testSweeper(logger);
    const webhook = await createWebhook();
    // Committed but never enqueued, overdue: the event sweep's to find.
    const eventId = newId("event");
    await database.db.insert(events).values({
      id: eventId,
      webhookId: webhook.id,
      status: "pending",
      body: "{}",
      priority: webhook.priority,
      nextAttemptAt: new Date(Date.now() - 60_000),
    });
    await database.sql`alter table event_parks rename to event_parks_away`;
    try {
      expect(await tick()).toBeGreaterThanOrEqual(1);
    } finally {
      await database.sql`alter table event_parks_away rename to event_parks`;
      await sweeper.stop();
    }
    expect(await jobStateOf({ eventId, webhookId: webhook.id })).toBe("waiting");
    expect(warnings).toEqual(
      expect.arrayContaining(["park sweep failed", "approval mail sweep failed"]),
    );
    expect(warnings).not.toContain("event sweep failed");
  });
});
