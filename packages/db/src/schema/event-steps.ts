import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { events } from "./events.js";

/**
 * Every step the node graph emitted for an event (running, then success, error or blocked), so
 * its history shows where it went and why. Written by the worker, one multi-row insert per job;
 * `id` orders steps of one event.
 */
export const eventSteps = pgTable(
  "event_steps",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    nodeType: text("node_type").notNull(),
    nodeId: text("node_id").notNull(),
    nodeName: text("node_name"),
    status: text("status").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms"),
    lastPayload: jsonb("last_payload"),
    error: text("error"),
    at: timestamp("at", { withTimezone: true }).notNull(),
  },
  (t) => [index("event_steps_event_idx").on(t.eventId, t.id)],
);
