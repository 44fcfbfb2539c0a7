import { deliveryJobOf, type EventForDelivery } from "./deliver-job.js";
import { type DeliveryQueues, laneQueue } from "./delivery-queues.js";
import { enqueueDeliveries } from "./enqueue-deliveries.js";

/** Job states after which a job with the event's id only blocks a new one. */
const FINISHED_STATES = new Set(["completed", "failed"]);
/** How many job look-ups run at once when many events are requeued together. */
const LOOKUP_CHUNK = 200;

/**
 * Enqueues the delivery of events that already had a job (reopened by a replay, or found without
 * a live job by the sweeper). BullMQ ignores an add whose id still exists, so a finished job left
 * behind under the event's id is removed first; a job still waiting, delayed or running is kept
 * (it will deliver the event). Throws when Redis fails: the events stay open in Postgres and the
 * sweeper enqueues them later.
 */
export async function requeueEvents(
  queues: DeliveryQueues,
  events: EventForDelivery[],
): Promise<void> {
  for (let start = 0; start < events.length; start += LOOKUP_CHUNK) {
    const chunk = events.slice(start, start + LOOKUP_CHUNK);
    await Promise.all(
      chunk.map(async (event) => {
        const queue = laneQueue(queues, event.priority);
        const state = await queue.getJobState(event.id);
        if (FINISHED_STATES.has(state)) await queue.remove(event.id);
      }),
    );
  }
  await enqueueDeliveries(queues, events.map(deliveryJobOf));
}

/**
 * Removes the event's waiting or delayed job from every lane (the webhook's priority may have
 * changed since it was enqueued). A job a worker holds right now cannot be removed; the worker
 * finds the event cancelled when it records its attempt.
 */
export async function removeEventJobs(queues: DeliveryQueues, eventId: string): Promise<void> {
  await Promise.all([...queues.values()].map((queue) => queue.remove(eventId)));
}
