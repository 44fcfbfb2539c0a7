import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  DELIVER_JOB,
  type DeliverJobData,
  deliveryQueueName,
  PRIORITIES,
  type Priority,
} from "./delivery-jobs.js";
import { addStandardJobs } from "./standard-job-batch.js";

export type DeliveryQueues = ReadonlyMap<Priority, Queue<DeliverJobData>>;

export interface CreateDeliveryQueuesOptions {
  connection: Redis;
  prefix: string;
}

/**
 * Producers' handles on the five priority lanes. Delivery retries are Hookflow's own (attempts
 * are recorded and scheduled by the worker), so BullMQ's attempts only cover infrastructure
 * failures of the processor itself (Postgres briefly down and the like).
 */
export function createDeliveryQueues(options: CreateDeliveryQueuesOptions): DeliveryQueues {
  const queues = new Map<Priority, Queue<DeliverJobData>>();
  for (const priority of PRIORITIES) {
    queues.set(
      priority,
      new Queue<DeliverJobData>(deliveryQueueName(priority), {
        connection: options.connection,
        prefix: options.prefix,
        defaultJobOptions: {
          removeOnComplete: true,
          removeOnFail: true,
          attempts: 8,
          backoff: { type: "exponential", delay: 1000 },
        },
      }),
    );
  }
  return queues;
}

export interface DeliveryToEnqueue {
  priority: number;
  data: DeliverJobData;
  delayMs?: number;
}

/**
 * Delivery jobs use the event id; resume jobs `park-<parkId>` (one live job per park). BullMQ
 * refuses custom ids containing `:`.
 */
export function jobIdOf(data: DeliverJobData): string {
  return data.parkId ? `park-${data.parkId}` : data.eventId;
}

/** The priority lane of a stored priority (clamped to 1..5). */
export function laneOf(priority: number): Priority {
  return Math.min(5, Math.max(1, Math.round(priority))) as Priority;
}

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
    const list = byLane.get(lane) ?? [];
    list.push(item);
    byLane.set(lane, list);
  }
  await Promise.all(
    [...byLane].map(async ([lane, list]) => {
      const queue = queues.get(lane);
      if (!queue) throw new Error(`no queue for lane ${lane}`);
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

export async function closeDeliveryQueues(queues: DeliveryQueues): Promise<void> {
  await Promise.all([...queues.values()].map((queue) => queue.close()));
}
