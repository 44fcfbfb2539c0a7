import { cronRepeatStrategy, SCHEDULE_QUEUE_NAME, type ScheduleJobData } from "@hookflow/queue";
import { type Job, Worker } from "bullmq";
import type { WorkerServices } from "../services.js";
import { RetryScheduledCall } from "./call-scheduled-url.js";
import { runScheduledTick } from "./run-scheduled-tick.js";

/** Ticks one worker process runs at once (url calls wait on the network). */
const SCHEDULE_CONCURRENCY = 10;

/**
 * The BullMQ worker of scheduled-workflow ticks. It computes each scheduler's next tick with the
 * same croner strategy as the api, so the schedule is the one the api validated.
 */
export function startScheduleWorker(services: WorkerServices): Worker<ScheduleJobData> {
  const worker = new Worker<ScheduleJobData>(
    SCHEDULE_QUEUE_NAME,
    (job: Job<ScheduleJobData>) => runScheduledTick(services, job),
    {
      connection: services.bullConnection,
      prefix: services.keys.bullPrefix,
      concurrency: SCHEDULE_CONCURRENCY,
      settings: { repeatStrategy: cronRepeatStrategy },
    },
  );
  worker.on("failed", (job, error) => {
    // A url call to be retried is recorded on its run; anything else is a fault of ours.
    if (error instanceof RetryScheduledCall) return;
    services.logger.warn({ err: error, jobId: job?.id }, "scheduled workflow tick failed");
  });
  worker.on("error", (error) => services.logger.warn({ err: error }, "schedule worker error"));
  return worker;
}
