import type { HealthStatus, TargetDeliveryStatus, TargetNotifyStatus } from "@hookflow/domain";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  sql,
  text,
  timestamp,
} from "../drizzle.js";
import { events } from "./events.js";
import { organizations, users } from "./identity.js";
import type { InputNodeRow } from "./pipeline.js";
import type { PayloadFilterRow } from "./webhooks.js";

/**
 * An additional target: a further URL that receives the events of the webhooks named in its
 * `inputNodes`, with its own retry budget, filters and JSON template (docs/decisions.md,
 * "Additional targets").
 */
export const additionalTargets = pgTable(
  "additional_targets",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    isActive: boolean("is_active").notNull().default(true),
    maxRetries: integer("max_retries").notNull().default(3),
    filters: jsonb("filters").$type<PayloadFilterRow[]>().notNull().default([]),
    payloadTransform: text("payload_transform"),
    notifyPrimaryOnFailure: boolean("notify_primary_on_failure").notNull().default(false),
    inputNodes: jsonb("input_nodes").$type<InputNodeRow[]>().notNull().default([]),
    /** The target's own health, like a webhook's: `healthy`, `degraded`, `down`. */
    healthStatus: text("health_status").$type<HealthStatus>().notNull().default("healthy"),
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("additional_targets_owner_idx").on(t.ownerId, t.createdAt),
    index("additional_targets_org_idx").on(t.organizationId, t.createdAt),
    index("additional_targets_inputs_idx").using("gin", sql`${t.inputNodes} jsonb_path_ops`),
  ],
);

/**
 * One event's delivery to one additional target: its own retry budget and state, apart from the
 * event's (whose status stays the primary's). `run` is the event's attempt count when the
 * delivery run that created the row began, so a replay (a new run) starts the target afresh while
 * a redelivered job of the same run finds the row it already made.
 * `status`: pending -> retrying -> delivered | failed. `notifyStatus` (only with
 * notifyPrimaryOnFailure): null -> pending (set with the last failure) -> sent | failed.
 */
export const targetDeliveries = pgTable(
  "target_deliveries",
  {
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    targetId: text("target_id").notNull(),
    webhookId: text("webhook_id").notNull(),
    run: integer("run").notNull(),
    priority: integer("priority").notNull().default(3),
    status: text("status").$type<TargetDeliveryStatus>().notNull().default("pending"),
    /** The rendered body this target receives (its payloadTransform applied), sent on each try. */
    body: text("body").notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    notifyStatus: text("notify_status").$type<TargetNotifyStatus>(),
    notifyAttemptCount: integer("notify_attempt_count").notNull().default(0),
    failedAt: timestamp("failed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.targetId] }),
    index("target_deliveries_open_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} in ('pending', 'retrying') or ${t.notifyStatus} = 'pending'`),
  ],
);
