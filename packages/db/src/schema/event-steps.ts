import { bigserial, index, json, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { events } from "./events.js";

/**
 * The steps the node graph emitted for an event (running, then success, error or blocked), so its
 * history shows where it went and why. Each job that ran nodes writes ONE row holding its steps as
 * a JSON array, in order (`id` orders the rows of one event): one row per job instead of one per
 * step measured about half the database CPU, and steps are only ever read as a whole history.
 * Each element: `{nodeType, nodeId, nodeName?, status, statusCode?, durationMs?, lastPayload?,
 * error?, at}` (see `EventStepEntry`).
 */
export const eventStepBatches = pgTable(
  "event_step_batches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** JSON (not jsonb): stored as written, never queried inside. */
    steps: json("steps").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_step_batches_event_idx").on(t.eventId, t.id)],
);
