import { ACTION_QUEUE, ACTION_TRIES, ActionJobData } from "@hookflow/queue";
import { type Job, UnrecoverableError, Worker } from "bullmq";
import { laneTiming } from "../lanes/lane-timing.js";
import type { WorkerServices } from "../services.js";
import { processAction } from "./process-action.js";

/** Action runs one worker process runs at once. */
const ACTION_CONCURRENCY = 20;

/**
 * The BullMQ worker of post-delivery action runs. Its lock and stalled check are the delivery
 * lanes' (an action's HTTP call has the delivery timeout), so a killed worker's runs come back
 * to another worker; the run row decides whether they run again.
 */
export function startActionWorker(services: WorkerServices): Worker<ActionJobData> {
  const { config, logger, bullConnection, keys } = services;
  const timing = laneTiming(config);
  const worker = new Worker<ActionJobData>(
    ACTION_QUEUE,
    async (job: Job<ActionJobData>) => {
      const parsed = ActionJobData.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("malformed action job");
      const data = parsed.data;
      const attempts = job.opts.attempts ?? ACTION_TRIES;
      const started = performance.now();
      const ids = {
        eventId: data.eventId,
        webhookId: data.webhookId,
        actionId: data.actionId,
        try: job.attemptsMade + 1,
      };
      const outcome = await processAction(services, data, {
        isLastTry: job.attemptsMade + 1 >= attempts,
      }).catch((error: unknown) => {
        // Postgres or Redis failed under the try: BullMQ tries the job again.
        logger.warn({ ...ids, err: error }, "action job failed");
        throw error;
      });
      logger.info(
        {
          ...ids,
          outcome: outcome.kind === "done" ? outcome.status : "retry",
          reason: outcome.kind === "done" ? outcome.reason : undefined,
          error: outcome.kind === "retry" ? outcome.error : undefined,
          ms: Math.round(performance.now() - started),
        },
        "action job",
      );
      if (outcome.kind === "retry") throw new Error(outcome.error);
    },
    {
      connection: bullConnection,
      prefix: keys.bullPrefix,
      concurrency: ACTION_CONCURRENCY,
      lockDuration: timing.lockDuration,
      stalledInterval: timing.stalledInterval,
      maxStalledCount: 2,
    },
  );
  worker.on("error", (error) => logger.warn({ err: error }, "action worker error"));
  return worker;
}
