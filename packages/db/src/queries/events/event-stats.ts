import type { Database } from "../../client.js";
import { and, eq, sql } from "../../drizzle.js";
import { deliveryAttempts, events } from "../../schema/index.js";
import { type EventScope, webhookInScope } from "./event-scope.js";

export interface EventCounts {
  total: number;
  delivered: number;
  failed: number;
}

/** Totals of the scope in one pass over its events. */
export async function countEventsByOutcome(db: Database, scope: EventScope): Promise<EventCounts> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      delivered: sql<number>`count(*) filter (where ${events.status} = 'delivered')`.mapWith(
        Number,
      ),
      failed: sql<number>`count(*) filter (where ${events.status} = 'failed')`.mapWith(Number),
    })
    .from(events)
    .where(webhookInScope(db, events.webhookId, scope));
  return row ?? { total: 0, delivered: 0, failed: 0 };
}

export interface DeliveryLatency {
  /** Milliseconds; null when there is no successful attempt. */
  avg: number | null;
  p95: number | null;
  p99: number | null;
  count: number;
}

const nullableNumber = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/**
 * Average and continuous percentiles of the latency of successful delivery attempts, computed
 * by Postgres (the rows never leave the database).
 */
export async function measureDeliveryLatency(
  db: Database,
  scope: EventScope,
): Promise<DeliveryLatency> {
  const latency = deliveryAttempts.latencyMs;
  const [row] = await db
    .select({
      avg: sql<number | null>`avg(${latency})::float8`.mapWith(nullableNumber),
      p95: sql<number | null>`percentile_cont(0.95) within group (order by ${latency})`.mapWith(
        nullableNumber,
      ),
      p99: sql<number | null>`percentile_cont(0.99) within group (order by ${latency})`.mapWith(
        nullableNumber,
      ),
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(deliveryAttempts)
    .where(
      and(
        webhookInScope(db, deliveryAttempts.webhookId, scope),
        eq(deliveryAttempts.success, true),
      ),
    );
  return row ?? { avg: null, p95: null, p99: null, count: 0 };
}
