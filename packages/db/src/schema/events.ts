import type { DeliveryPhase, EventStatus } from "@hookflow/domain";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  sql,
  text,
  timestamp,
  uniqueIndex,
} from "../drizzle.js";
import { webhooks } from "./webhooks.js";

export interface ParkedAt {
  nodeType: string;
  nodeId: string;
}

export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** One of EVENT_STATUSES (docs/decisions.md, "Delivery"). */
    status: text("status").$type<EventStatus>().notNull().default("pending"),
    eventType: text("event_type"),
    /** The exact request body as received; the payload is its JSON parse. */
    body: text("body").notNull(),
    /** The body the pipeline produced for delivery, when a node changed it. */
    deliveryBody: text("delivery_body"),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    sourceIp: text("source_ip"),
    priority: integer("priority").notNull().default(3),
    attemptCount: integer("attempt_count").notNull().default(0),
    lastError: text("last_error"),
    lastStatusCode: integer("last_status_code"),
    parkedAt: jsonb("parked_at").$type<ParkedAt>(),
    awaitingApproval: boolean("awaiting_approval").notNull().default(false),
    awaitingMerge: boolean("awaiting_merge").notNull().default(false),
    delayed: boolean("delayed").notNull().default(false),
    dedupKey: text("dedup_key"),
    parentEventId: text("parent_event_id"),
    /**
     * The ingress event this one descends from through forwards (router routes, rate-limiter
     * outputs; later chains and flow links), null for an event that came in itself. Its forwarding
     * budget (`forward_claims`) is shared by every descendant.
     */
    rootEventId: text("root_event_id"),
    /** Forwards between the root and this event: 0 for an event that came in itself. */
    forwardDepth: integer("forward_depth").notNull().default(0),
    chainStep: integer("chain_step"),
    /**
     * For a chain step (chainStep set): the event whose webhook's `chainWebhookIds` the chain
     * walks (step 1's parent). Null otherwise. See docs/decisions.md, "Chains".
     */
    chainOriginEventId: text("chain_origin_event_id"),
    /**
     * Where the event enters its webhook's graph when not at the webhook itself: the scheduled
     * workflow whose tick injected it (nodes listing the workflow in inputNodes run on it).
     */
    entryNodeId: text("entry_node_id"),
    /**
     * Which target the current delivery run is on (`primary`, then `fallback` once the primary's
     * budget is spent) and how many attempts that target has had in this run. A worker that finds
     * the event `pending` starts a new run (first delivery or replay) from `primary`, 0.
     */
    deliveryPhase: text("delivery_phase").$type<DeliveryPhase>().notNull().default("primary"),
    phaseAttemptCount: integer("phase_attempt_count").notNull().default(0),
    /**
     * The node graph's current run (null until a run with stateful nodes starts): keys merge
     * arrivals and rate-limit members, so a replay never mixes with an earlier run.
     */
    pipelineRun: text("pipeline_run"),
    /**
     * What the graph produced in the current run (@hookflow/pipeline's EventPipelineState); null
     * until the graph's first job is applied. Set = the graph already ran: retries and redelivered
     * jobs never run it again. A replay resets it.
     */
    pipelineState: jsonb("pipeline_state").$type<Record<string, unknown>>(),
    /** When the next attempt is due; the sweeper re-enqueues overdue events that lost their job. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("events_webhook_created_idx").on(t.webhookId, t.createdAt),
    index("events_webhook_status_created_idx").on(t.webhookId, t.status, t.createdAt),
    index("events_webhook_type_idx").on(t.webhookId, t.eventType),
    index("events_status_created_idx").on(t.status, t.createdAt),
    index("events_open_idx").on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'retrying')`),
    // One event per chain step and parent: creating the next step is idempotent.
    uniqueIndex("events_chain_step_key")
      .on(t.parentEventId, t.chainStep)
      .where(sql`${t.chainStep} is not null`),
    index("events_chain_origin_idx")
      .on(t.chainOriginEventId)
      .where(sql`${t.chainOriginEventId} is not null`),
  ],
);

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /**
     * The event's webhook, kept for the per-webhook attempt queries. No foreign key of its own:
     * the event's key already ties the attempt to a live webhook (deleting a webhook deletes its
     * events, and they their attempts), and a second key would cost every attempt insert another
     * lookup and a share lock on the webhook's row (docs/decisions.md, "Events as a queue table").
     */
    webhookId: text("webhook_id").notNull(),
    targetUrl: text("target_url").notNull(),
    isAdditionalTarget: boolean("is_additional_target").notNull().default(false),
    isFallback: boolean("is_fallback").notNull().default(false),
    targetId: text("target_id"),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code").notNull().default(0),
    responseBody: text("response_body").notNull().default(""),
    latencyMs: integer("latency_ms").notNull().default(0),
    success: boolean("success").notNull(),
    error: text("error"),
    attemptedAt: timestamp("attempted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("delivery_attempts_event_idx").on(t.eventId, t.attemptedAt),
    index("delivery_attempts_webhook_success_idx").on(t.webhookId, t.success, t.attemptedAt),
  ],
);
