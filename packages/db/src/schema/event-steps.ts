import { bigserial, index, json, pgTable, text, timestamp } from "../drizzle.js";

/**
 * The steps the node graph emitted for an event (running, then success, error or blocked), so its
 * history shows where it went and why. Each job that ran nodes writes ONE row holding its steps as
 * a JSON array, in order (`id` orders the rows of one event): one row per job instead of one per
 * step measured about half the database CPU, and steps are only ever read as a whole history.
 * Each element: `{eventId?, nodeType, nodeId, nodeName?, status, statusCode?, durationMs?,
 * error?, at, lastPayload?}` (see `EventStepEntry`; `eventId` in rows written since 0006).
 */
export const eventStepBatches = pgTable(
  "event_step_batches",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /**
     * The event (no foreign key: checking one per insert cost about a fifth of the row's database
     * CPU). Deleting events deletes their rows through the `events_delete_step_batches` trigger
     * (migration 0006), and rows are only written in the statement that updates their event.
     */
    eventId: text("event_id").notNull(),
    /** JSON (not jsonb): stored as written, never queried inside. */
    steps: json("steps").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("event_step_batches_event_idx").on(t.eventId, t.id)],
);
