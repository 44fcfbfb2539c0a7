import { sql } from "../../drizzle.js";
import type { DbExecutor } from "../pipeline-nodes/node-rows.js";

/** A queued job of a webhook, as Postgres knows it (the queue names it from these fields). */
export type WebhookJobRef =
  | { kind: "event"; eventId: string; priority: number }
  | { kind: "park"; eventId: string; parkId: string; priority: number }
  | { kind: "target"; eventId: string; targetId: string; targetFailed: boolean; priority: number };

interface Row {
  kind: "event" | "park" | "target" | "notice";
  event_id: string;
  ref: string | null;
  priority: number;
}

/**
 * The jobs a webhook's open work may have queued (open events, waiting parks, open target
 * deliveries and due `target.failed` notices), at most `limit`, oldest events first: what a
 * webhook delete removes from the queues.
 */
export async function findWebhookJobRefs(
  db: DbExecutor,
  webhookId: string,
  limit: number,
): Promise<WebhookJobRef[]> {
  const rows = (await db.execute(sql`
    (select 'event' as kind, id as event_id, null as ref, priority from events
      where webhook_id = ${webhookId} and status in ('pending', 'retrying')
      order by created_at limit ${limit})
    union all
    (select 'park', p.event_id, p.id, e.priority from event_parks p
      join events e on e.id = p.event_id
      where e.webhook_id = ${webhookId} and p.status = 'waiting' limit ${limit})
    union all
    (select case when status in ('pending', 'retrying') then 'target' else 'notice' end,
      event_id, target_id, priority from target_deliveries
      where webhook_id = ${webhookId}
        and (status in ('pending', 'retrying') or notify_status = 'pending')
      limit ${limit})`)) as unknown as Row[];
  return rows.slice(0, limit).map((row): WebhookJobRef => {
    if (row.kind === "event") {
      return { kind: "event", eventId: row.event_id, priority: row.priority };
    }
    if (row.kind === "park") {
      return { kind: "park", eventId: row.event_id, parkId: row.ref ?? "", priority: row.priority };
    }
    return {
      kind: "target",
      eventId: row.event_id,
      targetId: row.ref ?? "",
      targetFailed: row.kind === "notice",
      priority: row.priority,
    };
  });
}
