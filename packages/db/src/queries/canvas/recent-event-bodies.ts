import type { Database } from "../../client.js";
import { alias, and, desc, eq, notExists } from "../../drizzle.js";
import { events } from "../../schema/index.js";

/**
 * The last `limit` events that entered a webhook (ingress, test events, forwards and chains from
 * other webhooks), newest first, with the body as received. Child events a fan-out of the
 * webhook's own graph produced are left out: their body is a payload the graph already made.
 */
export async function listRecentEventBodies(
  db: Database,
  webhookId: string,
  limit: number,
): Promise<Array<{ id: string; eventType: string | null; body: string }>> {
  const parent = alias(events, "parent");
  return db
    .select({ id: events.id, eventType: events.eventType, body: events.body })
    .from(events)
    .where(
      and(
        eq(events.webhookId, webhookId),
        notExists(
          db
            .select({ id: parent.id })
            .from(parent)
            .where(
              and(eq(parent.id, events.parentEventId), eq(parent.webhookId, events.webhookId)),
            ),
        ),
      ),
    )
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit);
}
