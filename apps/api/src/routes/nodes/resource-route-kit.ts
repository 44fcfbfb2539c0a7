import { z } from "@hono/zod-openapi";
import { pageQueryFields } from "../../http/page-query.js";
import { errorResponsesOf } from "../../http/route-kit.js";

/**
 * Pieces shared by the canvas resources (every node family and canvas snapshots): paging,
 * id parameters, scope middleware and error documentation.
 */

export { BEARER, scopeGuard } from "../../http/route-kit.js";

const PAGE_DEFAULT_LIMIT = 20;
const PAGE_MAX_LIMIT = 100;

export const PageQuery = z.object(pageQueryFields(PAGE_DEFAULT_LIMIT, PAGE_MAX_LIMIT));

export function idParams(example: string) {
  return z.object({
    id: z
      .string()
      .min(1)
      .openapi({ param: { name: "id", in: "path" }, example }),
  });
}

type ErrorCode = 400 | 401 | 403 | 404 | 409;

/** OpenAPI entries of the error answers a route can give, all in the documented error shape. */
export function errorResponses(label: string, ...codes: ErrorCode[]) {
  const text: Record<ErrorCode, string> = {
    400: "Invalid request or reference; the message names the field",
    401: "Missing, unknown or expired credential",
    403: `${label} of another owner, or a key without the scope`,
    404: `No ${label.toLowerCase()} with this id`,
    409:
      "Another record still depends on this one in a way that cannot be removed, or the " +
      "existing nodes a write connects would exceed a forwarding limit (the message names it)",
  };
  return errorResponsesOf(text, codes);
}

export const TotalCountHeader = z.object({
  "X-Total-Count": z.string().openapi({ description: "Total records in this context" }),
});
