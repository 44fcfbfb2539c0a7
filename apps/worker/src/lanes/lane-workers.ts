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
import { laneTiming } from "./lane-timing.js";

/** How many jobs of `lane` one worker process runs at once. */
export function laneConcurrency(total: number, lane: Priority): number {
  return Math.max(1, Math.round(total * LANE_WEIGHTS[lane]));
}

/**
 * One BullMQ worker per priority lane, each with its own share of the concurrency, so a backlog in
 * a low lane never delays priority 1 and no lane starves.
 */
export function startLaneWorkers(services: WorkerServices): Worker<DeliverJobData>[] {
  const { config, bullConnection, keys, logger, workerMetrics } = services;
  const timing = laneTiming(config);
  return PRIORITIES.map((lane) => {
    const name = deliveryQueueName(lane);
    const processor = async (job: Job<DeliverJobData>, token?: string): Promise<void> => {
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
    worker.on("error", (error) => logger.warn({ err: error, lane: name }, "lane worker error"));
    worker.on("failed", (job, error) => {
      if (error instanceof UnrecoverableError || error.name === "UnrecoverableError") return;
      logger.error(
        { err: error, eventId: job?.data.eventId, lane: name, attemptsMade: job?.attemptsMade },
        "delivery job crashed; BullMQ will retry it",
      );
    });
    return worker;
  });
}
