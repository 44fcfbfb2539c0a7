import type { Database } from "../../client.js";
import { sql } from "../../drizzle.js";
import { withPlainIndexScans } from "../plain-index-scans.js";

export interface OverdueEvent {
  id: string;
  webhookId: string;
  priority: number;
  nextAttemptAt: Date;
}

export interface OverdueCursor {
  nextAttemptAt: Date;
  id: string;
}

/**
 * Open events (pending or retrying, not parked) of active webhooks whose next attempt was due
 * before `dueBefore`, oldest first, continuing after `after` so successive sweeps walk the whole
 * backlog instead of re-reading its head.
 *
 * Walks the partial index `events_open_idx` with a plain index scan (see `withPlainIndexScans`).
 */
export async function findOverdueEvents(
  db: Database,
  options: { dueBefore: Date; limit: number; after?: OverdueCursor },
): Promise<OverdueEvent[]> {
  const after = options.after
    ? sql`and (e.next_attempt_at, e.id) > (${options.after.nextAttemptAt.toISOString()}::timestamptz, ${options.after.id})`
    : sql``;
  const rows = (await withPlainIndexScans(db, (tx) =>
    tx.execute(sql`
    select e.id, e.webhook_id, e.priority, e.next_attempt_at
    from events e
    join webhooks w on w.id = e.webhook_id
    where e.status in ('pending', 'retrying')
      and e.next_attempt_at < ${options.dueBefore.toISOString()}::timestamptz
      and not e.awaiting_approval and not e.awaiting_merge and not e.delayed
      and w.is_active
      ${after}
    order by e.next_attempt_at, e.id
    limit ${options.limit}`),
  )) as unknown as Array<{
    id: string;
    webhook_id: string;
    priority: number;
    next_attempt_at: Date | string;
  }>;
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.webhook_id,
    priority: row.priority,
    nextAttemptAt: new Date(row.next_attempt_at),
  }));
}
