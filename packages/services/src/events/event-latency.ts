import { measureDeliveryLatency } from "@hookflow/db";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { eventScopeFor } from "./visible-event.js";

/** Mean, p95 and p99 latency in ms, one decimal; 0 when there is no successful attempt. */
export interface EventLatency {
  avg: number;
  p95: number;
  p99: number;
}

const oneDecimal = (value: number | null): number =>
  value === null ? 0 : Math.round(value * 10) / 10;

/** Latency of the successful delivery attempts of the visible webhooks (or of one). */
export async function eventLatency(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { webhookId?: string },
): Promise<EventLatency> {
  requireScope(actor, "events:read");
  const scope = await eventScopeFor(ctx, actor, input.webhookId);
  const latency = await measureDeliveryLatency(ctx.db.db, scope);
  return {
    avg: oneDecimal(latency.avg),
    p95: oneDecimal(latency.p95),
    p99: oneDecimal(latency.p99),
  };
}
