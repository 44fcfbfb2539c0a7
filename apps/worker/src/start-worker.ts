import { startActionWorker } from "./actions/action-worker.js";
import { startLaneWorkers } from "./lanes/lane-workers.js";
import type { WorkerServices } from "./services.js";
import { createRedisLease } from "./sweeper/redis-lease.js";
import { startSweeper } from "./sweeper/sweeper.js";

export interface RunningWorker {
  /** Runs one sweep now (when this process wins the sweeper lease). */
  sweepNow: () => Promise<number>;
  /** Graceful: stops taking jobs, lets in-flight deliveries finish, stops the sweeper. */
  close: () => Promise<void>;
}

/**
 * Starts the delivery engine on built services: the change subscription (caches), one BullMQ
 * worker per priority lane and the sweeper. Closing it leaves the services open (the caller owns
 * them).
 */
export async function startWorker(services: WorkerServices): Promise<RunningWorker> {
  await services.changes.start();
  // Without a listener BullMQ prints queue errors (Redis unreachable) raw on stderr.
  for (const queue of services.queues.values()) {
    if (queue.listenerCount("error") === 0) {
      queue.on("error", (error) => services.logger.warn({ err: error }, "queue error"));
    }
  }
  const lanes = startLaneWorkers(services);
  const actions = startActionWorker(services);
  await Promise.all([...lanes.workers.values(), actions].map((worker) => worker.waitUntilReady()));
  const sweeper = startSweeper({
    db: services.db.db,
    queues: services.queues,
    lease: createRedisLease(
      services.redis,
      `${services.config.redisPrefix}:lease:delivery-sweeper`,
    ),
    logger: services.logger,
    settings: services.sweeper,
    now: services.now,
    approvals: { graphs: services.pipeline.graphs, notifier: services.pipeline.approvals },
  });
  services.logger.info(
    { concurrency: services.config.workerConcurrency, lanes: lanes.workers.size },
    "worker started",
  );
  let closing: Promise<void> | undefined;
  return {
    sweepNow: sweeper.sweepOnce,
    close: () => {
      closing ??= (async () => {
        await sweeper.stop();
        await lanes.close();
        await actions.close();
      })();
      return closing;
    },
  };
}
