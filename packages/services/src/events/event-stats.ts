import { countEventsByOutcome } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { eventScopeFor } from "./visible-event.js";

export interface EventStats {
  total: number;
  delivered: number;
  failed: number;
  /** delivered / total * 100, one decimal; 0 without events. */
  successRate: number;
}

function successRateOf(delivered: number, total: number): number {
  return total === 0 ? 0 : Math.round((delivered / total) * 1000) / 10;
}

/** Counts of the visible events (of one webhook when `webhookId` is given). */
export async function eventStats(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { webhookId?: string },
): Promise<EventStats> {
  requireScope(actor, "events:read");
  const scope = await eventScopeFor(ctx, actor, input.webhookId);
  const { total, delivered, failed } = await countEventsByOutcome(ctx.db.db, scope);
  return { total, delivered, failed, successRate: successRateOf(delivered, total) };
}
