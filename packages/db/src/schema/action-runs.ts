import { index, integer, pgTable, text, timestamp, uniqueIndex } from "../drizzle.js";
import { events } from "./events.js";

/**
 * One row per post-delivery action and event: the run's state, so an action fires at most once
 * per event however often its trigger is repeated (delivery retries, a redelivered job, a worker
 * killed mid-run). `status`: running -> success | failed, or retrying between tries.
 * `tries` counts the tries started; `response` is the first 4 KB of what the action got back.
 * Deleted with their event.
 */
export const actionRuns = pgTable(
  "action_runs",
  {
    id: text("id").primaryKey(),
    actionId: text("action_id").notNull(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id").notNull(),
    family: text("family").notNull(),
    /** What fired it: the delivery's outcome, `success` or `failure`. */
    trigger: text("trigger").notNull(),
    status: text("status").notNull(),
    tries: integer("tries").notNull().default(0),
    statusCode: integer("status_code"),
    response: text("response"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("action_runs_action_event_key").on(t.actionId, t.eventId),
    index("action_runs_event_idx").on(t.eventId),
  ],
);
export type ActionRunRow = typeof actionRuns.$inferSelect;
