import type { Database } from "../../client.js";
import { and, eq, gte, lt, sql } from "../../drizzle.js";
import { deliveryAttempts, events } from "../../schema/index.js";
import { type EventScope, webhookInScope } from "./event-scope.js";

export interface TimelineWindow {
  from: Date;
  to: Date;
  buckets: number;
}

export interface TimelineBucket {
  index: number;
  total: number;
  delivered: number;
  failed: number;
  /** Latency of the bucket's successful attempts in ms; null without any. */
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The bucket of a timestamp column: whole steps of `(to - from) / buckets` since `from`. */
function bucketOf(
  column: typeof events.createdAt | typeof deliveryAttempts.attemptedAt,
  w: TimelineWindow,
) {
  const stepSeconds = (w.to.getTime() - w.from.getTime()) / 1000 / w.buckets;
  return sql<number>`floor(extract(epoch from (${column} - ${w.from.toISOString()}::timestamptz)) / ${stepSeconds})::int`.mapWith(
    Number,
  );
}

/**
 * Events by outcome and the latency percentiles of successful attempts, per time bucket of the
 * window (events by creation time, attempts by attempt time). Empty buckets are absent; Postgres
 * aggregates, so rows never leave the database.
 */
export async function readEventTimeline(
  db: Database,
  scope: EventScope,
  window: TimelineWindow,
): Promise<TimelineBucket[]> {
  const eventBucket = bucketOf(events.createdAt, window);
  const counts = await db
    .select({
      index: eventBucket,
      total: sql<number>`count(*)`.mapWith(Number),
      delivered: sql<number>`count(*) filter (where ${events.status} = 'delivered')`.mapWith(
        Number,
      ),
      failed: sql<number>`count(*) filter (where ${events.status} = 'failed')`.mapWith(Number),
    })
    .from(events)
    .where(
      and(
        webhookInScope(db, events.webhookId, scope),
        gte(events.createdAt, window.from),
        lt(events.createdAt, window.to),
      ),
    )
    .groupBy(sql`1`);
  const latency = deliveryAttempts.latencyMs;
  const attemptBucket = bucketOf(deliveryAttempts.attemptedAt, window);
  const percentile = (p: number) =>
    sql<number | null>`percentile_cont(${p}::float8) within group (order by ${latency})`.mapWith(
      nullableNumber,
    );
  const latencies = await db
    .select({
      index: attemptBucket,
      p50: percentile(0.5),
      p95: percentile(0.95),
      p99: percentile(0.99),
    })
    .from(deliveryAttempts)
    .where(
      and(
        webhookInScope(db, deliveryAttempts.webhookId, scope),
        eq(deliveryAttempts.success, true),
        gte(deliveryAttempts.attemptedAt, window.from),
        lt(deliveryAttempts.attemptedAt, window.to),
      ),
    )
    .groupBy(sql`1`);
  const byIndex = new Map<number, TimelineBucket>();
  const bucket = (index: number): TimelineBucket => {
    let found = byIndex.get(index);
    if (!found) {
      found = { index, total: 0, delivered: 0, failed: 0, p50: null, p95: null, p99: null };
      byIndex.set(index, found);
    }
    return found;
  };
  for (const row of counts) Object.assign(bucket(row.index), row);
  for (const row of latencies) Object.assign(bucket(row.index), row);
  return [...byIndex.values()].filter((b) => b.index >= 0 && b.index < window.buckets);
}
