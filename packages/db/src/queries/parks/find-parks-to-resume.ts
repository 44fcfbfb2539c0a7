import type { Database } from "../../client.js";
import { sql } from "../../drizzle.js";
import { withPlainIndexScans } from "../plain-index-scans.js";

export interface ParkToResume {
  id: string;
  eventId: string;
  webhookId: string;
  priority: number;
  /** When the continuation became due: `resume_at` of a waiting park, `decided_at` of a decided one. */
  due: Date;
}

/** Where the previous page of `findParksToResume` stopped. */
export interface ParkCursor {
  due: Date;
  id: string;
}

/**
 * Parks whose continuation is overdue, for the sweeper to check for a live job: waiting parks
 * past their `resume_at` (delay over, approval or merge timed out), and decided parks (approved
 * or rejected through the API) whose continuation the worker has not applied. Oldest first by
 * (due, id), continuing after `after` so successive sweeps walk the whole backlog instead of
 * re-reading its head. Walks the partial indexes `event_parks_due_idx` and
 * `event_parks_unresolved_idx` with plain index scans (see `withPlainIndexScans`).
 */
export async function findParksToResume(
  db: Database,
  input: { before: Date; limit: number; after?: ParkCursor },
): Promise<ParkToResume[]> {
  const before = input.before.toISOString();
  const cursor = input.after;
  const afterWaiting = cursor
    ? sql`and (resume_at, id) > (${cursor.due.toISOString()}::timestamptz, ${cursor.id})`
    : sql``;
  const afterDecided = cursor
    ? sql`and (decided_at, id) > (${cursor.due.toISOString()}::timestamptz, ${cursor.id})`
    : sql``;
  const rows = (await withPlainIndexScans(db, (tx) =>
    tx.execute(sql`
    select p.id, p.event_id, p.webhook_id, e.priority, p.due from (
      (select id, event_id, webhook_id, resume_at as due from event_parks
        where status = 'waiting' and resume_at < ${before}::timestamptz ${afterWaiting}
        order by resume_at, id limit ${input.limit})
      union all
      (select id, event_id, webhook_id, decided_at as due from event_parks
        where status <> 'waiting' and resolved_at is null and decided_at < ${before}::timestamptz
          ${afterDecided}
        order by decided_at, id limit ${input.limit})
    ) p
    join events e on e.id = p.event_id
    order by p.due, p.id
    limit ${input.limit}`),
  )) as unknown as Array<{
    id: string;
    event_id: string;
    webhook_id: string;
    priority: number;
    due: Date | string;
  }>;
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    priority: row.priority,
    due: new Date(row.due),
  }));
}
