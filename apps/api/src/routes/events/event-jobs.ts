import type { ReopenedEvent } from "@hookflow/db";
import { UnavailableError } from "@hookflow/domain";
import {
  type DeliveryQueues,
  type DeliveryToEnqueue,
  deliveryQueueName,
  enqueueDeliveries,
  INLINE_BODY_MAX_BYTES,
} from "@hookflow/queue";

/** Job states after which a job with the event's id only blocks a new one. */
const FINISHED_STATES = new Set(["completed", "failed"]);
/** How many job look-ups run at once when many events are reopened together. */
const LOOKUP_CHUNK = 200;

function laneQueue(queues: DeliveryQueues, priority: number) {
  const name = deliveryQueueName(priority);
  for (const queue of queues.values()) if (queue.name === name) return queue;
  throw new Error(`no delivery queue ${name}`);
}

/** The delivery job of an event, with the body inline when it is small (as the ingress does). */
export function deliveryOf(event: ReopenedEvent): DeliveryToEnqueue {
  const { body } = event;
  const inline = body !== null && Buffer.byteLength(body, "utf8") <= INLINE_BODY_MAX_BYTES;
  return {
    priority: event.priority,
    data: { eventId: event.id, webhookId: event.webhookId, ...(inline ? { body } : {}) },
  };
}

/**
 * Enqueues the delivery of events just reopened in Postgres. The job id is the event id, and
 * BullMQ ignores an add whose id still exists: a finished job left behind under that id is
 * removed first. A job still waiting, delayed or running is kept (it will deliver the event).
 * If Redis fails, the events stay pending in Postgres and the worker's sweeper enqueues them.
 */
export async function enqueueReopenedEvents(
  queues: DeliveryQueues,
  events: ReopenedEvent[],
): Promise<void> {
  try {
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
    await enqueueDeliveries(queues, events.map(deliveryOf));
  } catch (error) {
    throw new UnavailableError(
      "Queue unavailable; the event will be enqueued by the sweeper",
      error,
    );
  }
}

/**
 * Removes the event's waiting or delayed job from every lane (the webhook's priority may have
 * changed since it was enqueued). A job a worker holds right now cannot be removed; the worker
 * finds the event cancelled when it records its attempt.
 */
export async function removeEventJobs(queues: DeliveryQueues, eventId: string): Promise<void> {
  await Promise.all([...queues.values()].map((queue) => queue.remove(eventId)));
}
