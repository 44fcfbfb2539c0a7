import { z } from "@hono/zod-openapi";
import { errorResponsesOf } from "../../http/route-kit.js";

export { BEARER, scopeGuard } from "../../http/route-kit.js";

export const TARGETS_TAG = "Additional targets";

export const TargetIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" }, example: "tgt_01J9Z3K8Q4T6V2X7Y5W0A1B2C3" }),
});

const ERROR_TEXT = {
  400: "Invalid request or reference; the message names the field",
  401: "Missing, unknown or expired credential",
  403: "Target of another owner, a key without the scope, or maxRetries above the plan's limit",
  404: "No additional target with this id",
} as const;

export function errorResponses(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}
