import { FINAL_STATUSES, OPEN_STATUSES } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { type AnyColumn, and, asc, eq, inArray, type SQL, sql } from "../../drizzle.js";
import { eventParks, events } from "../../schema/index.js";

/** What a producer needs to enqueue the delivery of a reopened event (never its body). */
export interface ReopenedEvent {
  id: string;
  webhookId: string;
  priority: number;
}

const reopenedColumns = {
  id: events.id,
  webhookId: events.webhookId,
  priority: events.priority,
};

/**
 * Back to pending, due now, as a new delivery run from the primary target. The attempt count is
 * kept, so attempts continue their numbering.
 */
function reopen(now: Date) {
  return {
    status: "pending" as const,
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
    deliveryPhase: "primary" as const,
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
): Promise<ReopenedEvent | undefined> {
  const [row] = await db
    .update(events)
    .set(reopen(now))
    .where(and(eq(events.id, id), inArray(events.status, [...FINAL_STATUSES])))
    .returning(reopenedColumns);
  return row;
}

/**
 * Where a paged replay-all stands: the arrival key of the last event it looked at. `createdAt` is
 * Postgres's text of the timestamp in UTC, to the microsecond (a JavaScript Date would cut it to
 * the millisecond and misplace the walk between events of one millisecond).
 */
interface ArrivalKey {
  createdAt: string;
  id: string;
}

export interface ReplayFailedEventsInput {
  webhookId: string;
  now: Date;
  /** Events reopened per statement (and held in memory at once). */
  batchSize: number;
}

/** A timestamp as text in UTC to the microsecond, which `::timestamptz` reads back exactly. */
const exactText = (value: SQL | AnyColumn) =>
  sql<string>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The next `batchSize` failed events of the webhook arrived by `arrivedBy`, after `after`. */
async function nextFailedBatch(
  db: Database,
  input: ReplayFailedEventsInput & { arrivedBy: string },
  after: ArrivalKey | null,
): Promise<ArrivalKey[]> {
  const { createdAt, id } = events;
  return db
    .select({ createdAt: exactText(createdAt), id })
    .from(events)
    .where(
      and(
        eq(events.webhookId, input.webhookId),
        eq(events.status, "failed"),
        sql`${createdAt} <= ${input.arrivedBy}::timestamptz`,
        after
          ? sql`(${createdAt}, ${id}) > (${after.createdAt}::timestamptz, ${after.id})`
          : undefined,
      ),
    )
    .orderBy(asc(createdAt), asc(id))
    .limit(input.batchSize);
}

/**
 * Reopens every failed event of the webhook that arrived before the call (by the database's
 * clock, which also stamps arrivals), one batch per statement, in
 * arrival order: each yielded batch is back to pending in Postgres (its own transaction) and is
 * the caller's to enqueue before the next is read, so memory holds one batch however many events
 * there are. The walk follows the arrival key (created_at, id) forward, so an event that fails
 * again while the walk runs is not reopened twice, and events arriving later are left alone: the
 * walk always ends. The status is checked again in the UPDATE, so two concurrent replays (or a
 * replay racing a single replay) never reopen one event twice.
 */
export async function* replayFailedEventsInBatches(
  db: Database,
  input: ReplayFailedEventsInput,
): AsyncGenerator<ReopenedEvent[]> {
  const [clock] = await db.execute<{ now: string }>(sql`select ${exactText(sql`now()`)} as now`);
  if (!clock) throw new Error("the database did not tell its time");
  const walk = { ...input, arrivedBy: clock.now };
  let after: ArrivalKey | null = null;
  for (;;) {
    const keys = await nextFailedBatch(db, walk, after);
    const last = keys.at(-1);
    if (!last) return;
    after = last;
    const rows = await db
      .update(events)
      .set(reopen(input.now))
      .where(
        and(
          inArray(
            events.id,
            keys.map((key) => key.id),
          ),
          eq(events.status, "failed"),
        ),
      )
      .returning(reopenedColumns);
    const reopened = new Map(rows.map((row) => [row.id, row]));
    // In arrival order; an event another replay reopened meanwhile is not in `rows`.
    const batch = keys.flatMap((key) => reopened.get(key.id) ?? []);
    if (batch.length > 0) yield batch;
    if (keys.length < input.batchSize) return;
  }
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
      .where(and(eq(events.id, id), inArray(events.status, [...OPEN_STATUSES])))
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
