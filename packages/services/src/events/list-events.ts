import { type EventStatus, type EventSummaryRow, listEventsPage } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { eventScopeFor } from "./visible-event.js";

export interface ListEventsInput {
  /** Only this webhook's events (it must be visible); else the acting context's. */
  webhookId?: string;
  status?: EventStatus;
  eventType?: string;
  /** Events created at or after this instant. */
  from?: Date;
  /** Events created before this instant. */
  before?: Date;
  page: number;
  limit: number;
}

/**
 * One page of the visible events, newest first, without payload and headers
 * (docs/decisions.md, "Events API").
 */
export async function listEvents(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: ListEventsInput,
): Promise<{ rows: EventSummaryRow[]; total: number }> {
  requireScope(actor, "events:read");
  const { from, before } = input;
  if (from && before && before.getTime() <= from.getTime()) {
    throw new ValidationError("dateTo: must not be before dateFrom");
  }
  const scope = await eventScopeFor(ctx, actor, input.webhookId);
  return listEventsPage(ctx.db.db, {
    scope,
    filters: { status: input.status, eventType: input.eventType, from, before },
    offset: (input.page - 1) * input.limit,
    limit: input.limit,
  });
}
