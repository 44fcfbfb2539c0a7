import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { DeliverJobData } from "./deliver-job.js";
import { deliveryQueueName, laneOf, PRIORITIES, type Priority } from "./lanes.js";

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

/** The queue of a stored priority's lane. */
export function laneQueue(queues: DeliveryQueues, priority: number): Queue<DeliverJobData> {
  const queue = queues.get(laneOf(priority));
  if (!queue) throw new Error(`no delivery queue for priority ${priority}`);
  return queue;
}

export async function closeDeliveryQueues(queues: DeliveryQueues): Promise<void> {
  await Promise.all([...queues.values()].map((queue) => queue.close()));
}
