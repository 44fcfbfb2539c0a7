import { type Database, findOverdueEvents, type OverdueCursor } from "@hookflow/db";
import type { Logger } from "@hookflow/observability";
import {
  type DeliveryQueues,
  deliveryQueueName,
  enqueueDeliveries,
  type Priority,
} from "@hookflow/queue";
import type { RedisLease } from "./redis-lease.js";
import { sweepParks } from "./sweep-parks.js";

export interface SweeperOptions {
  /** How often a sweep runs across all workers. */
  intervalMs: number;
  /** An event must be overdue by this much before it is considered lost. */
  graceMs: number;
  /** Events examined per sweep. */
  batchSize: number;
}

export interface Sweeper {
  /** Runs one sweep now (if this process wins the lease); returns how many jobs it re-created. */
  sweepOnce: () => Promise<number>;
  stop: () => Promise<void>;
}

function laneOf(priority: number): Priority {
  return Math.min(5, Math.max(1, Math.round(priority))) as Priority;
}

/**
 * Finds events Postgres holds as pending or retrying whose job is gone (Redis restarted empty, a
 * crash between commit and enqueue, an inactive webhook that became active) and enqueues them
 * again, oldest first; likewise parked paths whose resume job is gone (see `sweepParks`). One sweeper runs at a time across all workers (a Redis lease); the scan
 * resumes where the previous sweep stopped, so a backlog of events that do have jobs (deferred by
 * a rate limit, say) never hides the ones that do not.
 */
export function startSweeper(options: {
  db: Database;
  queues: DeliveryQueues;
  lease: RedisLease;
  logger: Logger;
  settings: SweeperOptions;
  now: () => Date;
}): Sweeper {
  const { db, queues, lease, logger, settings } = options;
  let cursor: OverdueCursor | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const sweep = async (): Promise<number> => {
    const now = options.now();
    const parks = await sweepParks({
      db,
      queues,
      before: new Date(now.getTime() - settings.graceMs),
      limit: settings.batchSize,
    });
    if (parks > 0)
      logger.info({ requeued: parks }, "sweeper re-enqueued parked paths without a job");
    return parks + (await sweepEvents(now));
  };

  const sweepEvents = async (now: Date): Promise<number> => {
    const overdue = await findOverdueEvents(db, {
      dueBefore: new Date(now.getTime() - settings.graceMs),
      limit: settings.batchSize,
      ...(cursor ? { after: cursor } : {}),
    });
    const last = overdue.at(-1);
    cursor =
      overdue.length < settings.batchSize || !last
        ? undefined
        : { nextAttemptAt: last.nextAttemptAt, id: last.id };
    if (overdue.length === 0) return 0;
    const jobs = await Promise.all(
      overdue.map((event) => queues.get(laneOf(event.priority))?.getJob(event.id)),
    );
    const lost = overdue.filter((_, index) => jobs[index] === undefined);
    if (lost.length === 0) return 0;
    await enqueueDeliveries(
      queues,
      lost.map((event) => ({
        priority: event.priority,
        data: { eventId: event.id, webhookId: event.webhookId },
      })),
    );
    logger.info(
      {
        requeued: lost.length,
        lanes: [...new Set(lost.map((e) => deliveryQueueName(e.priority)))],
      },
      "sweeper re-enqueued events without a job",
    );
    return lost.length;
  };

  const sweepOnce = async (): Promise<number> => {
    if (running) return running;
    running = (async () => {
      if (!(await lease.tryAcquire(Math.max(settings.intervalMs * 4, 30_000)))) return 0;
      try {
        return await sweep();
      } finally {
        // Nobody sweeps again before the interval has passed.
        await lease.holdFor(settings.intervalMs * 0.9);
      }
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (stopped) return;
    sweepOnce().catch((error: unknown) => logger.warn({ err: error }, "sweep failed"));
  }, settings.intervalMs);
  timer.unref();

  return {
    sweepOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
