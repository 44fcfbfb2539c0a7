import { readEventTimeline, type TimelineBucket } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { eventScopeFor } from "./visible-event.js";

/** Longest window one timeline covers. */
export const TIMELINE_MAX_DAYS = 92;
const DAY_MS = 86_400_000;

export interface EventTimelineInput {
  webhookId?: string;
  /** Defaults to 24 hours before `to`. */
  from?: Date;
  /** Defaults to now. */
  to?: Date;
  buckets: number;
}

/** A bucket of the query's, with its start (ISO 8601) in place of its index. */
export type EventTimelineBucket = { start: string } & Omit<TimelineBucket, "index">;

export interface EventTimeline {
  from: string;
  to: string;
  bucketSeconds: number;
  buckets: EventTimelineBucket[];
}

const oneDecimal = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 10) / 10;

/**
 * [from, to) split into equal buckets, every bucket listed (empty ones with zeros and null
 * latencies): events created in each by their status now, and the latency percentiles of the
 * successful attempts made in each.
 */
export async function eventTimeline(
  ctx: Pick<ServiceContext, "db" | "now">,
  actor: Actor,
  input: EventTimelineInput,
): Promise<EventTimeline> {
  requireScope(actor, "events:read");
  const to = input.to ?? ctx.now();
  const from = input.from ?? new Date(to.getTime() - DAY_MS);
  if (from >= to) throw new ValidationError("from: must be before to");
  if (to.getTime() - from.getTime() > TIMELINE_MAX_DAYS * DAY_MS) {
    throw new ValidationError(`from: the window may cover at most ${TIMELINE_MAX_DAYS} days`);
  }
  const scope = await eventScopeFor(ctx, actor, input.webhookId);
  const window = { from, to, buckets: input.buckets };
  const rows = new Map(
    (await readEventTimeline(ctx.db.db, scope, window)).map((row) => [row.index, row]),
  );
  const stepMs = (to.getTime() - from.getTime()) / input.buckets;
  const buckets = Array.from({ length: input.buckets }, (_, index): EventTimelineBucket => {
    const row = rows.get(index);
    return {
      start: new Date(from.getTime() + index * stepMs).toISOString(),
      total: row?.total ?? 0,
      delivered: row?.delivered ?? 0,
      failed: row?.failed ?? 0,
      p50: oneDecimal(row?.p50 ?? null),
      p95: oneDecimal(row?.p95 ?? null),
      p99: oneDecimal(row?.p99 ?? null),
    };
  });
  return { from: from.toISOString(), to: to.toISOString(), bucketSeconds: stepMs / 1000, buckets };
}
