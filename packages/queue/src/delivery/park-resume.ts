import type { Job } from "bullmq";
import type { DeliverJobData } from "./deliver-job.js";
import { jobIdOf } from "./deliver-job.js";
import type { DeliveryQueues } from "./delivery-queues.js";
import { enqueueResume } from "./enqueue-deliveries.js";

export interface ResumeNow {
  eventId: string;
  webhookId: string;
  parkId: string;
  /** The lane a new job goes to when the park has none. */
  priority: number;
}

/**
 * What `resumeParkNow` did: `promoted` a delayed job (the approval timeout) to run now, `added` a
 * job because the park had none, or found one already `queued` (waiting) or `running` (active),
 * which will read the park's decision when it runs.
 */
export type ResumeNowOutcome = "promoted" | "added" | "queued" | "running";

/** States in which the park's job will still run and read the park row. */
const PENDING_STATES: Partial<Record<string, ResumeNowOutcome>> = {
  active: "running",
  waiting: "queued",
  prioritized: "queued",
  "waiting-children": "queued",
};
/** A job left behind under the id would make BullMQ ignore a new add. */
const FINISHED_STATES = new Set(["completed", "failed"]);
/** Each round reacts to one state change of the job; a handful always settles. */
const MAX_ROUNDS = 5;

interface FoundJob {
  job: Job<DeliverJobData> | undefined;
  state: string;
  remove: () => Promise<unknown>;
}

/** The park's job in whichever lane holds it (the webhook's priority may have changed). */
async function findParkJob(queues: DeliveryQueues, jobId: string): Promise<FoundJob | undefined> {
  const found = await Promise.all(
    [...queues.values()].map(async (queue) => {
      const state = await queue.getJobState(jobId);
      if (state === "unknown") return undefined;
      return {
        job: state === "delayed" ? await queue.getJob(jobId) : undefined,
        state,
        remove: () => queue.remove(jobId),
      };
    }),
  );
  return found.find((entry) => entry !== undefined);
}

/**
 * Makes a decided park continue now. The worker parked the path with a delayed job for its
 * timeout (job id `park-<parkId>`): that job is promoted to run at once. A park without a job
 * (Redis lost it, or it already ran) gets a new one. A job that is waiting or running is left
 * alone: it reads the park row, so it sees the decision.
 *
 * Race-safe: promotion is atomic in Redis and fails if the job left the delayed set meanwhile, in
 * which case the job's new state is read again; adds reuse the job id, so two callers never
 * create two jobs.
 */
export async function resumeParkNow(
  queues: DeliveryQueues,
  item: ResumeNow,
): Promise<ResumeNowOutcome> {
  const data = { eventId: item.eventId, webhookId: item.webhookId, parkId: item.parkId };
  const jobId = jobIdOf(data);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = await findParkJob(queues, jobId);
    if (found === undefined) {
      await enqueueResume(queues, { ...data, priority: item.priority });
      return "added";
    }
    const pending = PENDING_STATES[found.state];
    if (pending) return pending;
    if (FINISHED_STATES.has(found.state)) {
      await found.remove();
      continue;
    }
    if (found.state === "delayed" && found.job) {
      try {
        await found.job.promote();
        return "promoted";
      } catch {
        // It left the delayed set (ran, was promoted by someone else, or removed): look again.
      }
    }
  }
  throw new Error(`could not resume park ${item.parkId}: its job kept changing state`);
}
