import { z } from "@hono/zod-openapi";

/**
 * The `page` and `limit` query parameters of a paged list: `page` is 1-based and defaults to 1;
 * `limit` defaults to `defaultLimit` and is at most `maxLimit`. Spread into a route's query
 * schema, or wrap in `z.object` when they are its only parameters.
 */
export function pageQueryFields(defaultLimit: number, maxLimit: number) {
  return {
    page: z.coerce
      .number()
      .int()
      .min(1)
      .default(1)
      .openapi({ param: { name: "page", in: "query" }, description: "1-based page number" }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .default(defaultLimit)
      .openapi({
        param: { name: "limit", in: "query" },
        description: `Page size, at most ${maxLimit}`,
      }),
  };
}
