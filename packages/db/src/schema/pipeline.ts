import { index, jsonb, pgTable, primaryKey, sql, text, timestamp } from "../drizzle.js";
import { events } from "./events.js";
import { organizations, users } from "./identity.js";
import { webhooks } from "./webhooks.js";

export interface InputNodeRow {
  nodeType: string;
  nodeId: string;
}

/**
 * Every processing node of every family in one table: `family` names it, `config` holds its
 * family's fields (validated by @hookflow/pipeline's family schema on every write), so adding a
 * family needs no migration.
 */
export const pipelineNodes = pgTable(
  "pipeline_nodes",
  {
    id: text("id").primaryKey(),
    /** A FamilyKey of @hookflow/pipeline: router, filter, transform, ... */
    family: text("family").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    config: jsonb("config").$type<Record<string, unknown>>().notNull(),
    inputNodes: jsonb("input_nodes").$type<InputNodeRow[]>().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("pipeline_nodes_owner_family_idx").on(t.ownerId, t.family, t.createdAt),
    index("pipeline_nodes_org_family_idx").on(t.organizationId, t.family, t.createdAt),
    index("pipeline_nodes_inputs_idx").using("gin", sql`${t.inputNodes} jsonb_path_ops`),
  ],
);

/**
 * A canvas layout (`nodes`, `edges` in the canvas node form) and the graph it showed,
 * frozen at save time (`graph`: the node records and webhooks it referenced), so time travel
 * replays events through the graph as it was, not as it is now.
 */
export const canvasSnapshots = pgTable(
  "canvas_snapshots",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    name: text("name").notNull(),
    nodes: jsonb("nodes").$type<Record<string, unknown>[]>().notNull(),
    edges: jsonb("edges").$type<Record<string, unknown>[]>().notNull(),
    graph: jsonb("graph").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("canvas_snapshots_owner_idx").on(t.ownerId, t.createdAt),
    index("canvas_snapshots_org_idx").on(t.organizationId, t.createdAt),
  ],
);

/**
 * A path of an event parked at a node: a delay or rate-limiter queue (`resume_at` = when it goes
 * on), an approval gate (`resume_at` = its timeout) or a merge arrival. Durable in Postgres, so a
 * Redis restart loses no parked event: the sweeper re-enqueues overdue rows.
 * `status`: waiting -> resumed | approved | rejected | expired | cancelled.
 */
export const eventParks = pgTable(
  "event_parks",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    nodeType: text("node_type").notNull(),
    nodeId: text("node_id").notNull(),
    /** delay | rateLimiter | approval | merge */
    kind: text("kind").notNull(),
    /** The event's pipeline run the path belongs to (`events.pipeline_run`); older runs are stale. */
    runId: text("run_id"),
    /** The path's payload at the node, as JSON text. */
    payload: text("payload").notNull(),
    /** Engine continuation data (branch ids, arrival order); opaque to everything else. */
    state: jsonb("state").$type<Record<string, unknown>>().notNull().default({}),
    status: text("status").notNull().default("waiting"),
    resumeAt: timestamp("resume_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decidedBy: text("decided_by"),
    /** When the worker applied the path's continuation (set once: a retried job never applies twice). */
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    /**
     * Approval gates: when the request mail was sent (or kept in the outbox). Null while it is
     * owed: the sweeper mails waiting approval parks that still have none.
     */
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    /**
     * Approval gates: whoever is sending the request mail holds it until then (a claim). A sender
     * that dies or fails leaves it to run out, and the sweeper sends again after that.
     */
    notifyLeaseUntil: timestamp("notify_lease_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_parks_event_idx").on(t.eventId),
    index("event_parks_unnotified_idx")
      .on(t.createdAt)
      .where(sql`${t.kind} = 'approval' and ${t.status} = 'waiting' and ${t.notifiedAt} is null`),
    index("event_parks_node_waiting_idx")
      .on(t.nodeId, t.createdAt)
      .where(sql`${t.status} = 'waiting'`),
    index("event_parks_due_idx").on(t.resumeAt).where(sql`${t.status} = 'waiting'`),
    index("event_parks_unresolved_idx")
      .on(t.decidedAt)
      .where(sql`${t.status} <> 'waiting' and ${t.resolvedAt} is null`),
  ],
);

/**
 * Mail the service sends (approval requests now, email actions later). With `SMTP_URL` set a row
 * records the send; without it the row is the local outbox users read.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    /** approval | emailAction */
    sourceType: text("source_type").notNull(),
    sourceId: text("source_id").notNull(),
    eventId: text("event_id"),
    to: jsonb("to").$type<string[]>().notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** outbox (no SMTP configured) | sent | failed | refused (over a mail limit) */
    status: text("status").notNull(),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_outbox_source_idx").on(t.sourceType, t.sourceId, t.createdAt)],
);

/**
 * The forwards granted to the descendants of one root event (its forwarding budget): one row per
 * forward, keyed by what identifies it in its run (event, run, path, node, target), so a retried
 * job claims the same forward again without spending more. The rows go with the root event.
 */
export const forwardClaims = pgTable(
  "forward_claims",
  {
    rootEventId: text("root_event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    claimKey: text("claim_key").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.rootEventId, t.claimKey] })],
);
