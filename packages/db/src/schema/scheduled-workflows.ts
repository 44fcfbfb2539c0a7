import { integer, pgTable, text, timestamp, uniqueIndex } from "../drizzle.js";
import { pipelineNodes } from "./pipeline.js";

/**
 * One row per tick of a scheduled workflow (docs/decisions.md, Scheduled workflows). The unique
 * (workflow, scheduled time) pair is what makes a tick fire once: whichever worker inserts the
 * row runs it; a duplicate job for the same tick finds the row and does nothing.
 * `status`: running -> succeeded | failed, or running -> retrying -> running ... (url calls).
 */
export const scheduledWorkflowRuns = pgTable(
  "scheduled_workflow_runs",
  {
    id: text("id").primaryKey(),
    workflowId: text("workflow_id")
      .notNull()
      .references(() => pipelineNodes.id, { onDelete: "cascade" }),
    /** The tick this run is for (the cron time, not when a worker picked it up). */
    scheduledFor: timestamp("scheduled_for", { withTimezone: true }).notNull(),
    status: text("status").notNull(),
    /** url | webhook */
    mode: text("mode").notNull(),
    attempts: integer("attempts").notNull().default(1),
    statusCode: integer("status_code"),
    /** The first 4 KB of the url's answer. */
    responseBody: text("response_body"),
    error: text("error"),
    /** webhook mode: the event the tick injected. */
    eventId: text("event_id"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("scheduled_workflow_runs_tick_idx").on(t.workflowId, t.scheduledFor)],
);
