import { z } from "@hono/zod-openapi";
import { type EventRow, type EventScope, findEventWithOwner } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import { actingScope, errorResponsesOf } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { loadVisibleWebhook } from "../webhooks/webhook-route-kit.js";

export { BEARER, scopeGuard } from "../../http/route-kit.js";

export const EVENTS_TAG = "Events";

const ERROR_TEXT = {
  400: "Invalid request; the message names the field",
  401: "Missing, unknown or expired credential",
  403: "Event or webhook of another owner, or a key without the scope",
  404: "No such event or webhook",
  409: "The event is not in a state this action applies to",
  413: "Payload larger than MAX_PAYLOAD_BYTES",
  503: "The queue is unavailable",
} as const;

/** OpenAPI entries of the error answers a route can give, all in the documented error shape. */
export function errorResponses(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}

export const WebhookIdQuery = z
  .string()
  .min(1)
  .optional()
  .openapi({
    param: { name: "webhookId", in: "query" },
    description: "Only this webhook (404 unknown, 403 another owner's)",
  });

/** Path parameter schema named `name` (`id` or `eventId`). */
export function eventIdParams<N extends string>(name: N) {
  return z.object({
    [name]: z
      .string()
      .min(1)
      .openapi({ param: { name, in: "path" }, example: "evt_01J9Z3K8Q4T6V2X7Y5W0A1B2C3" }),
  } as Record<N, z.ZodString>);
}

/**
 * The events a request may read: those of one webhook when `webhookId` is given (it must be
 * visible), else those of the acting context's webhooks (the organization's when acting for
 * one, else the caller's personal webhooks), as for webhook lists.
 */
export async function eventScopeFor(
  services: ApiServices,
  actor: Actor,
  webhookId: string | undefined,
): Promise<EventScope> {
  if (webhookId !== undefined) {
    await loadVisibleWebhook(services, actor, webhookId);
    return { webhookId };
  }
  return actingScope(actor);
}

/** The event if the actor may see its webhook: 404 when absent, 403 when not theirs. */
export async function loadVisibleEvent(
  services: ApiServices,
  actor: Actor,
  id: string,
): Promise<EventRow> {
  const found = await findEventWithOwner(services.db.db, id);
  if (!found) throw new NotFoundError("Event not found");
  assertVisible(actor, found.webhook, "Event");
  return found.event;
}
