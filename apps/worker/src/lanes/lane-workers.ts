import { withSpan } from "@hookflow/observability";
import {
  DeliverJobData,
  deliveryQueueName,
  LANE_WEIGHTS,
  PRIORITIES,
  type Priority,
} from "@hookflow/queue";
import { DelayedError, type Job, UnrecoverableError, Worker } from "bullmq";
import { processDelivery } from "../delivery/process-delivery.js";
import type { WorkerServices } from "../services.js";
import { type LaneScheduler, startLaneScheduler } from "./lane-scheduler.js";
import { laneTiming } from "./lane-timing.js";

/** How many jobs of `lane` one worker process runs at once before the scheduler's first tick. */
export function laneConcurrency(total: number, lane: Priority): number {
  return Math.max(1, Math.round(total * LANE_WEIGHTS[lane]));
}

export interface LaneWorkers {
  workers: ReadonlyMap<Priority, Worker<DeliverJobData>>;
  scheduler: LaneScheduler;
  close: () => Promise<void>;
}

/**
 * One BullMQ worker per priority lane; the lane scheduler sets each one's concurrency to its share
 * of `WORKER_CONCURRENCY` every tick (work-conserving: idle lanes lend their slots; with work in
 * every lane, priority 1 gets the largest share), so a backlog in a low lane never delays
 * priority 1, no lane starves, and no slot idles while work waits.
 */
export function startLaneWorkers(services: WorkerServices): LaneWorkers {
  const { config, bullConnection, keys, logger, workerMetrics } = services;
  const timing = laneTiming(config);
  const workers = new Map<Priority, Worker<DeliverJobData>>();
  const scheduler = startLaneScheduler({
    workers,
    queues: services.queues,
    total: config.workerConcurrency,
    logger,
  });
  for (const lane of PRIORITIES) {
    const name = deliveryQueueName(lane);
    const processor = async (job: Job<DeliverJobData>, token?: string): Promise<void> => {
      const finished = scheduler.started(lane);
      try {
        await processJob(job, token);
      } finally {
        finished();
      }
    };
    const processJob = async (job: Job<DeliverJobData>, token?: string): Promise<void> => {
      const data = DeliverJobData.parse(job.data);
      const started = performance.now();
      const result = await withSpan(
        services.tracer,
        "hookflow.deliver",
        { "hookflow.event_id": data.eventId, "hookflow.webhook_id": data.webhookId, lane: name },
        async (span) => {
          const outcome = await processDelivery(services, data);
          span.setAttribute("hookflow.outcome", outcome.outcome);
          if (outcome.attempt !== undefined) span.setAttribute("hookflow.attempt", outcome.attempt);
          return outcome;
        },
      );
      workerMetrics.jobs.inc({ lane: name, outcome: result.outcome });
      logger.info(
        {
          eventId: data.eventId,
          webhookId: data.webhookId,
          lane: name,
          attempt: result.attempt,
          outcome: result.outcome,
          statusCode: result.statusCode,
          error: result.error,
          nextAttemptInMs: result.kind === "delay" ? result.untilMs - Date.now() : undefined,
          ms: Math.round(performance.now() - started),
        },
        "delivery job",
      );
      switch (result.kind) {
        case "done":
          return;
        case "delay":
          await job.moveToDelayed(Math.max(Date.now(), Math.round(result.untilMs)), token);
          throw new DelayedError();
        case "unrecoverable":
          throw new UnrecoverableError(result.error ?? result.outcome);
      }
    };
    const worker = new Worker<DeliverJobData>(name, processor, {
      connection: bullConnection,
      prefix: keys.bullPrefix,
      concurrency: laneConcurrency(config.workerConcurrency, lane),
      lockDuration: timing.lockDuration,
      stalledInterval: timing.stalledInterval,
      maxStalledCount: 2,
    });
    worker.on("drained", () => scheduler.drained(lane));
    worker.on("error", (error) => logger.warn({ err: error, lane: name }, "lane worker error"));
    worker.on("failed", (job, error) => {
      if (error instanceof UnrecoverableError || error.name === "UnrecoverableError") return;
      logger.error(
        { err: error, eventId: job?.data.eventId, lane: name, attemptsMade: job?.attemptsMade },
        "delivery job crashed; BullMQ will retry it",
      );
    });
    workers.set(lane, worker);
  }
  return {
    workers,
    scheduler,
    close: async () => {
      scheduler.stop();
      await Promise.all([...workers.values()].map((worker) => worker.close()));
    },
  };
}
