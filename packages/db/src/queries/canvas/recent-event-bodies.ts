import { desc, eq } from "drizzle-orm";
import type { Database } from "../../client.js";
import { events } from "../../schema/index.js";

/** The last `limit` events of a webhook, newest first, with the body as received. */
export async function listRecentEventBodies(
  db: Database,
  webhookId: string,
  limit: number,
): Promise<Array<{ id: string; body: string }>> {
  return db
    .select({ id: events.id, body: events.body })
    .from(events)
    .where(eq(events.webhookId, webhookId))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit);
}
