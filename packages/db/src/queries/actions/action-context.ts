import type { DbHandle } from "../../client.js";

/** What an action's templates read: the event, its webhook, and the delivery's last answer. */
export interface ActionEventContext {
  eventId: string;
  eventType: string | null;
  /** The event's body as received (the original payload). */
  body: string;
  webhookId: string;
  webhookName: string;
  ownerId: string;
  organizationId: string | null;
  /** The last attempt at the primary target or its fallback; null when none was made. */
  lastAttempt: { statusCode: number; responseBody: string } | null;
}

interface Row {
  id: string;
  event_type: string | null;
  body: string;
  webhook_id: string;
  name: string;
  owner_id: string;
  organization_id: string | null;
  status_code: number | null;
  response_body: string | null;
}

/** One statement: the event, its webhook's name and owner, and its last own delivery attempt. */
export async function loadActionEventContext(
  handle: DbHandle,
  eventId: string,
): Promise<ActionEventContext | undefined> {
  const [row] = await handle.sql<Row[]>`
    select e.id, e.event_type, e.body, e.webhook_id, w.name, w.owner_id, w.organization_id,
      a.status_code, a.response_body
    from events e
    join webhooks w on w.id = e.webhook_id
    left join lateral (
      select status_code, response_body from delivery_attempts
      where event_id = e.id and not is_additional_target
      order by attempted_at desc, attempt desc limit 1
    ) a on true
    where e.id = ${eventId}`;
  if (!row) return undefined;
  return {
    eventId: row.id,
    eventType: row.event_type,
    body: row.body,
    webhookId: row.webhook_id,
    webhookName: row.name,
    ownerId: row.owner_id,
    organizationId: row.organization_id,
    lastAttempt:
      row.status_code === null
        ? null
        : { statusCode: row.status_code, responseBody: row.response_body ?? "" },
  };
}
