import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../client.js";
import { eventParks, events } from "../../schema/index.js";
import { FINAL_EVENT_STATUSES, OPEN_EVENT_STATUSES } from "./event-rows.js";

/** What a producer needs to enqueue the delivery of a reopened event. */
export interface ReopenedEvent {
  id: string;
  webhookId: string;
  /** The original body when it fits in a job (`inlineBodyMaxBytes`), else null. */
  body: string | null;
  priority: number;
}

/** Bodies above the inline limit stay in Postgres, so a large replay-all stays small in memory. */
function reopenedColumns(inlineBodyMaxBytes: number) {
  return {
    id: events.id,
    webhookId: events.webhookId,
    body: sql<
      string | null
    >`case when octet_length(${events.body}) <= ${inlineBodyMaxBytes} then ${events.body} end`,
    priority: events.priority,
  };
}

/**
 * Back to pending, due now, as a new delivery run from the primary target. The attempt count is
 * kept, so attempts continue their numbering.
 */
function reopen(now: Date) {
  return {
    status: "pending",
    // Replays start from the original payload, not what a previous run's pipeline produced.
    deliveryBody: null,
    // A new run of the node graph (the previous run's merges and rate-limit arrivals stay behind).
    pipelineRun: null,
    pipelineState: null,
    nextAttemptAt: now,
    deliveredAt: null,
    parkedAt: null,
    awaitingApproval: false,
    awaitingMerge: false,
    delayed: false,
    deliveryPhase: "primary",
    phaseAttemptCount: 0,
    updatedAt: now,
  };
}

/**
 * Replays one event: only from a final state, checked in the WHERE clause, so two replays (or a
 * replay racing a worker) cannot both reopen it. Undefined when the event is not in a final state.
 */
export async function replayEvent(
  db: Database,
  id: string,
  now: Date,
  inlineBodyMaxBytes: number,
): Promise<ReopenedEvent | undefined> {
  const [row] = await db
    .update(events)
    .set(reopen(now))
    .where(and(eq(events.id, id), inArray(events.status, [...FINAL_EVENT_STATUSES])))
    .returning(reopenedColumns(inlineBodyMaxBytes));
  return row;
}

/** Reopens every failed event of the webhook; returned in arrival order. */
export async function replayFailedEventsOfWebhook(
  db: Database,
  webhookId: string,
  now: Date,
  inlineBodyMaxBytes: number,
): Promise<ReopenedEvent[]> {
  const rows = await db
    .update(events)
    .set(reopen(now))
    .where(and(eq(events.webhookId, webhookId), eq(events.status, "failed")))
    .returning({ ...reopenedColumns(inlineBodyMaxBytes), createdAt: events.createdAt });
  rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return rows.map(({ createdAt: _createdAt, ...rest }) => rest);
}

/**
 * Cancels an event that is still pending or retrying (checked in the WHERE clause, so a worker
 * finishing it at the same moment wins or loses cleanly), and the parks its paths wait at, in the
 * same transaction. Undefined when it was not open.
 */
export async function cancelEvent(
  db: Database,
  id: string,
  now: Date,
): Promise<{ id: string; priority: number } | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(events)
      .set({
        status: "cancelled",
        nextAttemptAt: null,
        awaitingApproval: false,
        awaitingMerge: false,
        delayed: false,
        updatedAt: now,
      })
      .where(and(eq(events.id, id), inArray(events.status, [...OPEN_EVENT_STATUSES])))
      .returning({ id: events.id, priority: events.priority });
    if (row) {
      await tx
        .update(eventParks)
        .set({ status: "cancelled", decidedAt: now, resolvedAt: now, updatedAt: now })
        .where(and(eq(eventParks.eventId, id), eq(eventParks.status, "waiting")));
    }
    return row;
  });
}
