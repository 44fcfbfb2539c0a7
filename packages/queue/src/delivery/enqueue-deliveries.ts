import { DELIVER_JOB, type DeliveryToEnqueue, jobIdOf } from "./deliver-job.js";
import { type DeliveryQueues, laneQueue } from "./delivery-queues.js";
import { laneOf, type Priority } from "./lanes.js";
import { addStandardJobs } from "./standard-job-batch.js";

/**
 * Enqueues deliveries, per lane with one script call for the jobs without delay (see
 * `addStandardJobs`) and one `addBulk` for the rest. The job id is the event id: an event that
 * already has a live job is not enqueued twice.
 */
export async function enqueueDeliveries(
  queues: DeliveryQueues,
  items: DeliveryToEnqueue[],
): Promise<void> {
  const byLane = new Map<Priority, DeliveryToEnqueue[]>();
  for (const item of items) {
    const lane = laneOf(item.priority);
    const list = byLane.get(lane);
    if (list) list.push(item);
    else byLane.set(lane, [item]);
  }
  await Promise.all(
    [...byLane].map(async ([lane, list]) => {
      const queue = laneQueue(queues, lane);
      const now = list.filter((item) => !item.delayMs);
      let rest = list;
      if (now.length > 0) {
        const batched = await addStandardJobs(
          queue,
          now.map((item) => ({ data: item.data, jobId: jobIdOf(item.data) })),
        );
        if (batched) rest = list.filter((item) => item.delayMs);
      }
      if (rest.length === 0) return;
      await queue.addBulk(
        rest.map((item) => ({
          name: DELIVER_JOB,
          data: item.data,
          opts: { jobId: jobIdOf(item.data), ...(item.delayMs ? { delay: item.delayMs } : {}) },
        })),
      );
    }),
  );
}

export interface ResumeToEnqueue {
  eventId: string;
  webhookId: string;
  parkId: string;
  priority: number;
  /** Wait before the path goes on (delay node, rate-limiter queue, approval timeout). */
  delayMs?: number;
}

/** Schedules the continuation of a parked path (see `DeliverJobData.parkId`). */
export async function enqueueResume(queues: DeliveryQueues, item: ResumeToEnqueue): Promise<void> {
  const { priority, delayMs, ...data } = item;
  await enqueueDeliveries(queues, [
    { priority, data, ...(delayMs && delayMs > 0 ? { delayMs } : {}) },
  ]);
}
