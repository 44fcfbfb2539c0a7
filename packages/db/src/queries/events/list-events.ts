import type { Database } from "../../client.js";
import { and, count, desc, eq, gte, isNotNull, lt, type SQL } from "../../drizzle.js";
import { events } from "../../schema/index.js";
import type { EventRow, EventStatus } from "./event-rows.js";
import { type EventScope, webhookInScope } from "./event-scope.js";

export interface EventListFilters {
  status?: EventStatus | undefined;
  eventType?: string | undefined;
  /** `createdAt` at or after. */
  from?: Date | undefined;
  /** `createdAt` strictly before (callers turn an inclusive bound into the next instant). */
  before?: Date | undefined;
}

export interface ListEventsOptions {
  scope: EventScope;
  filters: EventListFilters;
  offset: number;
  limit: number;
}

/** Columns of a list item: the body and headers stay in the table. */
const summaryColumns = {
  id: events.id,
  webhookId: events.webhookId,
  status: events.status,
  eventType: events.eventType,
  sourceIp: events.sourceIp,
  priority: events.priority,
  attemptCount: events.attemptCount,
  lastError: events.lastError,
  lastStatusCode: events.lastStatusCode,
  parkedAt: events.parkedAt,
  awaitingApproval: events.awaitingApproval,
  awaitingMerge: events.awaitingMerge,
  delayed: events.delayed,
  dedupKey: events.dedupKey,
  parentEventId: events.parentEventId,
  chainStep: events.chainStep,
  nextAttemptAt: events.nextAttemptAt,
  deliveredAt: events.deliveredAt,
  createdAt: events.createdAt,
  updatedAt: events.updatedAt,
};

/** An event as lists show it: no body, no headers, no delivery bookkeeping. */
export type EventSummaryRow = Pick<EventRow, keyof typeof summaryColumns>;

function listWhere(db: Database, scope: EventScope, filters: EventListFilters): SQL | undefined {
  return and(
    webhookInScope(db, events.webhookId, scope),
    filters.status ? eq(events.status, filters.status) : undefined,
    filters.eventType !== undefined ? eq(events.eventType, filters.eventType) : undefined,
    filters.from ? gte(events.createdAt, filters.from) : undefined,
    filters.before ? lt(events.createdAt, filters.before) : undefined,
  );
}

/**
 * One page of events, newest first, and the total matching the filters. The filters line up
 * with the `(webhook_id, [status,] created_at)` indexes.
 */
export async function listEventsPage(
  db: Database,
  options: ListEventsOptions,
): Promise<{ rows: EventSummaryRow[]; total: number }> {
  const where = listWhere(db, options.scope, options.filters);
  const [rows, totals] = await Promise.all([
    db
      .select(summaryColumns)
      .from(events)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Distinct event types of the scope, sorted. Events without a type are left out. */
export async function listEventTypes(db: Database, scope: EventScope): Promise<string[]> {
  const rows = await db
    .selectDistinct({ eventType: events.eventType })
    .from(events)
    .where(and(webhookInScope(db, events.webhookId, scope), isNotNull(events.eventType)))
    .orderBy(events.eventType);
  return rows.flatMap((row) => (row.eventType === null ? [] : [row.eventType]));
}
