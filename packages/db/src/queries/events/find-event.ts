import type { Database } from "../../client.js";
import { asc, eq } from "../../drizzle.js";
import { deliveryAttempts, events, webhooks } from "../../schema/index.js";
import type { EventRow, StoredDeliveryAttempt } from "./event-rows.js";

export interface EventWithOwner {
  event: EventRow;
  /** The owner columns of the event's webhook: an event is visible when its webhook is. */
  webhook: { id: string; ownerId: string; organizationId: string | null };
}

export async function findEventWithOwner(
  db: Database,
  id: string,
): Promise<EventWithOwner | undefined> {
  const [row] = await db
    .select({
      event: events,
      webhook: {
        id: webhooks.id,
        ownerId: webhooks.ownerId,
        organizationId: webhooks.organizationId,
      },
    })
    .from(events)
    .innerJoin(webhooks, eq(events.webhookId, webhooks.id))
    .where(eq(events.id, id))
    .limit(1);
  return row;
}

/** Every recorded attempt of the event, oldest first. */
export async function listDeliveryAttemptsOfEvent(
  db: Database,
  eventId: string,
): Promise<StoredDeliveryAttempt[]> {
  return db
    .select()
    .from(deliveryAttempts)
    .where(eq(deliveryAttempts.eventId, eventId))
    .orderBy(
      asc(deliveryAttempts.attemptedAt),
      asc(deliveryAttempts.attempt),
      asc(deliveryAttempts.id),
    );
}
