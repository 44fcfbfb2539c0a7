import { z } from "@hono/zod-openapi";
import { errorResponsesOf } from "../../http/route-kit.js";

export { BEARER, scopeGuard } from "../../http/route-kit.js";

export const WEBHOOKS_TAG = "Webhooks";

export const WebhookIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" }, example: "wh_01J9Z3K8Q4T6V2X7Y5W0A1B2C3" }),
});

const ERROR_TEXT = {
  400: "Invalid request; the message names the field",
  401: "Missing, unknown or expired credential",
  403: "Webhook of another owner, or a key without the scope",
  404: "No webhook with this id",
  409: "A node cannot do without this webhook (a router whose only route leads to it)",
} as const;

/** OpenAPI entries of the error answers a route can give, all in the documented error shape. */
export function errorResponses(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}
