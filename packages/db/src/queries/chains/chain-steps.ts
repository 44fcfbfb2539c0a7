import type { Database } from "../../client.js";
import { asc, eq, sql } from "../../drizzle.js";
import { events, webhooks } from "../../schema/index.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

/** What continuing a chain after an event's delivery needs to know of that event. */
export interface ChainContext {
  id: string;
  webhookId: string;
  status: string;
  eventType: string | null;
  /** The raw body as received (a chain step's is `{original, previous}`). */
  body: string;
  chainStep: number | null;
  chainOriginEventId: string | null;
  forwardDepth: number;
  /** The webhook whose chain this is: the event's own, or its chain origin's (null: deleted). */
  originWebhookId: string | null;
  /** The last successful attempt at the event's own targets (primary or fallback). */
  lastSuccess: { statusCode: number; responseBody: string } | null;
}

interface ContextRow {
  id: string;
  webhook_id: string;
  status: string;
  event_type: string | null;
  body: string;
  chain_step: number | null;
  chain_origin_event_id: string | null;
  forward_depth: number;
  origin_webhook_id: string | null;
  success_status: number | null;
  success_body: string | null;
}

export async function findChainContext(
  db: Database,
  eventId: string,
): Promise<ChainContext | undefined> {
  const rows = (await db.execute(sql`
    select e.id, e.webhook_id, e.status, e.event_type, e.body, e.chain_step,
      e.chain_origin_event_id, e.forward_depth,
      case when e.chain_origin_event_id is null then e.webhook_id else o.webhook_id end
        as origin_webhook_id,
      a.status_code as success_status, a.response_body as success_body
    from events e
    left join events o on o.id = e.chain_origin_event_id
    left join lateral (
      select status_code, response_body from delivery_attempts
      where event_id = e.id and success and not is_additional_target
      order by attempted_at desc, attempt desc limit 1
    ) a on true
    where e.id = ${eventId}`)) as unknown as ContextRow[];
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    webhookId: row.webhook_id,
    status: row.status,
    eventType: row.event_type,
    body: row.body,
    chainStep: row.chain_step,
    chainOriginEventId: row.chain_origin_event_id,
    forwardDepth: row.forward_depth,
    originWebhookId: row.origin_webhook_id,
    lastSuccess:
      row.success_status === null
        ? null
        : { statusCode: row.success_status, responseBody: row.success_body ?? "" },
  };
}

export interface NewChainStep {
  id: string;
  webhookId: string;
  parentEventId: string;
  chainStep: number;
  chainOriginEventId: string;
  rootEventId: string;
  forwardDepth: number;
  priority: number;
  eventType: string | null;
  body: string;
  now: Date;
}

/**
 * Creates a chain step's event once: a second call for the same parent and step (a redelivered
 * job, a recovering worker) finds the first one. Returns the step's event and its status.
 */
export async function insertChainStep(
  db: Database,
  step: NewChainStep,
): Promise<{ id: string; status: string; created: boolean }> {
  const inserted = await db
    .insert(events)
    .values({
      id: step.id,
      webhookId: step.webhookId,
      status: "pending",
      eventType: step.eventType,
      body: step.body,
      headers: { "content-type": "application/json" },
      priority: step.priority,
      parentEventId: step.parentEventId,
      rootEventId: step.rootEventId,
      forwardDepth: step.forwardDepth,
      chainStep: step.chainStep,
      chainOriginEventId: step.chainOriginEventId,
      nextAttemptAt: step.now,
      createdAt: step.now,
      updatedAt: step.now,
    })
    .onConflictDoNothing({
      target: [events.parentEventId, events.chainStep],
      where: sql`${events.chainStep} is not null`,
    })
    .returning({ id: events.id, status: events.status });
  const [row] = inserted;
  if (row) return { ...row, created: true };
  const [existing] = await db
    .select({ id: events.id, status: events.status })
    .from(events)
    .where(
      sql`${events.parentEventId} = ${step.parentEventId} and ${events.chainStep} = ${step.chainStep}`,
    );
  if (!existing) throw new Error(`chain step ${step.chainStep} of ${step.parentEventId} vanished`);
  return { ...existing, created: false };
}

/** The raw body of an event (a chain step's carries the chain headers' values). */
export async function findEventRawBody(db: Database, eventId: string): Promise<string | undefined> {
  const [row] = await db.select({ body: events.body }).from(events).where(eq(events.id, eventId));
  return row?.body;
}

/** The chain steps that ran from an origin event, in step order. */
export async function listChainSteps(
  db: Database,
  originEventId: string,
): Promise<Array<{ id: string; webhookId: string; chainStep: number; status: string }>> {
  const rows = await db
    .select({
      id: events.id,
      webhookId: events.webhookId,
      chainStep: events.chainStep,
      status: events.status,
    })
    .from(events)
    .where(eq(events.chainOriginEventId, originEventId))
    .orderBy(asc(events.chainStep));
  return rows.flatMap((row) =>
    row.chainStep === null ? [] : [{ ...row, chainStep: row.chainStep }],
  );
}

/**
 * Removes a deleted webhook from every webhook's `chainWebhookIds` (in the caller's transaction).
 * Returns the ids of the webhooks changed.
 */
export async function detachWebhookFromChains(
  db: DbExecutor,
  webhookId: string,
  now: Date,
): Promise<string[]> {
  const rows = await db
    .update(webhooks)
    .set({
      chainWebhookIds: sql`array_remove(${webhooks.chainWebhookIds}, ${webhookId})`,
      updatedAt: now,
    })
    .where(sql`${webhookId} = any(${webhooks.chainWebhookIds})`)
    .returning({ id: webhooks.id });
  return rows.map((row) => row.id);
}
