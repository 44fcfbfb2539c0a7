import { sql } from "drizzle-orm";
import type { Database } from "../../client.js";

export interface ParkToResume {
  id: string;
  eventId: string;
  webhookId: string;
  priority: number;
}

/**
 * Parks whose continuation is overdue, for the sweeper to check for a live job: waiting parks
 * past their `resume_at` (delay over, approval or merge timed out), and decided parks (approved
 * or rejected through the API) whose continuation the worker has not applied. Oldest first.
 */
export async function findParksToResume(
  db: Database,
  input: { before: Date; limit: number },
): Promise<ParkToResume[]> {
  const before = input.before.toISOString();
  const rows = (await db.execute(sql`
    select p.id, p.event_id, p.webhook_id, e.priority from (
      (select id, event_id, webhook_id, resume_at as due from event_parks
        where status = 'waiting' and resume_at < ${before}::timestamptz
        order by resume_at limit ${input.limit})
      union all
      (select id, event_id, webhook_id, decided_at as due from event_parks
        where status <> 'waiting' and resolved_at is null and decided_at < ${before}::timestamptz
        order by decided_at limit ${input.limit})
    ) p
    join events e on e.id = p.event_id
    order by p.due
    limit ${input.limit}`)) as unknown as Array<{
    id: string;
    event_id: string;
    webhook_id: string;
    priority: number;
  }>;
  return rows.map((row) => ({
    id: row.id,
    eventId: row.event_id,
    webhookId: row.webhook_id,
    priority: row.priority,
  }));
}
