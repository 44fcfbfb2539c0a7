import { startActionWorker } from "./actions/action-worker.js";
import { startLaneWorkers } from "./lanes/lane-workers.js";
import { startScheduleWorker } from "./schedules/schedule-worker.js";
import { type ScheduleSweepState, sweepSchedulers } from "./schedules/sweep-schedulers.js";
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
  const scheduleWorker = startScheduleWorker(services);
  const actions = startActionWorker(services);
  await Promise.all([
    ...[...lanes.workers.values()].map((worker) => worker.waitUntilReady()),
    scheduleWorker.waitUntilReady(),
    actions.waitUntilReady(),
  ]);
  const scheduleSweep: ScheduleSweepState = { workflowCursor: null, schedulerOffset: 0 };
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
    passes: [
      {
        name: "scheduler",
        run: () =>
          sweepSchedulers({
            db: services.db.db,
            schedules: services.schedules,
            state: scheduleSweep,
            batchSize: services.sweeper.batchSize,
            delayScale: services.config.delayScale,
          }),
      },
    ],
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
        await Promise.all([lanes.close(), scheduleWorker.close(), actions.close()]);
      })();
      return closing;
    },
  };
}
