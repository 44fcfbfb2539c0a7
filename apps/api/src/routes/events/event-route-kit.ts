import { z } from "@hono/zod-openapi";
import { errorResponsesOf } from "../../http/route-kit.js";

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
