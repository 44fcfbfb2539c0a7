import { UnavailableError } from "@hookflow/domain";
import { type DeliveryQueues, type EventForDelivery, requeueEvents } from "@hookflow/queue";

/**
 * Enqueues the delivery of events just reopened in Postgres (replay, replay-all). If Redis
 * fails, the events stay pending in Postgres and the worker's sweeper enqueues them: the caller
 * is told 503.
 */
export async function enqueueReopenedEvents(
  queues: DeliveryQueues,
  events: EventForDelivery[],
): Promise<void> {
  try {
    await requeueEvents(queues, events);
  } catch (error) {
    throw new UnavailableError(
      "Queue unavailable; the event will be enqueued by the sweeper",
      error,
    );
  }
}
