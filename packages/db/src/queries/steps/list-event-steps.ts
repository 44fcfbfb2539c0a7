import { asc, eq } from "drizzle-orm";
import type { Database } from "../../client.js";
import { eventSteps } from "../../schema/index.js";

export type EventStepRecord = typeof eventSteps.$inferSelect;

/** Every recorded step of an event, in the order they happened. */
export async function listEventSteps(db: Database, eventId: string): Promise<EventStepRecord[]> {
  return db
    .select()
    .from(eventSteps)
    .where(eq(eventSteps.eventId, eventId))
    .orderBy(asc(eventSteps.id));
}
