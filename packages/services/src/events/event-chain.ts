import { type EventRow, findWebhookChainLinks, listChainSteps } from "@hookflow/db";
import type { ServiceContext } from "../context.js";

/**
 * The chain an event takes part in (docs/decisions.md, "Chains"), from its origin: every step of
 * the origin webhook's `chainWebhookIds`, with the step's event and status once it ran, and
 * `not_reached` for the steps a failure (or a limit) stopped before.
 */
export interface EventChain {
  originEventId: string;
  steps: Array<{
    step: number;
    webhookId: string;
    eventId: string | null;
    /** The step event's status, or not_reached. */
    status: string;
  }>;
}

/** Null for an event that is neither a chain step nor the origin of one. */
export async function eventChainOf(
  ctx: Pick<ServiceContext, "db">,
  event: Pick<EventRow, "id" | "webhookId" | "chainStep" | "chainOriginEventId">,
): Promise<EventChain | null> {
  const originEventId = event.chainOriginEventId ?? event.id;
  const db = ctx.db.db;
  const [ran, origin] = await Promise.all([
    listChainSteps(db, originEventId),
    event.chainOriginEventId === null
      ? findWebhookChainLinks(db, [event.webhookId])
      : Promise.resolve([]),
  ]);
  const planned = origin[0]?.chainWebhookIds ?? [];
  if (ran.length === 0 && (event.chainStep !== null || planned.length === 0)) {
    return event.chainStep === null ? null : { originEventId, steps: [] };
  }
  const steps: EventChain["steps"] = ran.map((row) => ({
    step: row.chainStep,
    webhookId: row.webhookId,
    eventId: row.id,
    status: row.status,
  }));
  for (let i = ran.length; i < planned.length; i++) {
    steps.push({
      step: i + 1,
      webhookId: planned[i] as string,
      eventId: null,
      status: "not_reached",
    });
  }
  return { originEventId, steps };
}
