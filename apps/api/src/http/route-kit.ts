import { z } from "@hono/zod-openapi";
import type { Scope } from "@hookflow/services";
import { requireScope } from "@hookflow/services";
import type { MiddlewareHandler } from "hono";
import type { AuthEnv } from "../auth/authenticate.js";

/**
 * Pieces every resource's route kit shares: bearer security, the scope middleware, the documented
 * error body in the OpenAPI document and the acting context of list queries. Each kit keeps
 * only its own wording (error descriptions, tags, id examples).
 */

/** The `security` of a route that needs a session or API key. */
export const BEARER = [{ bearerAuth: [] }];

/**
 * Scope check as route middleware: it runs before parameter and body validation, so a key
 * without the scope gets 403 whatever it sends.
 */
export function scopeGuard(scope: Scope): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    requireScope(c.get("actor"), scope);
    await next();
  };
}

/** Every error answer (docs/decisions.md, "The api's edge"). */
const ErrorBody = z.object({
  statusCode: z.number().int(),
  message: z.string(),
  error: z.string(),
});

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503;

/** The OpenAPI entry of one error answer, in the documented error shape. */
export function errorAnswer(description: string) {
  return { description, content: { "application/json": { schema: ErrorBody } } };
}

/**
 * OpenAPI entries of the error answers a route can give, in the order given, each described by
 * the kit's `text` for that status.
 */
export function errorResponsesOf<C extends ErrorStatus>(
  text: Readonly<Record<C, string>>,
  codes: readonly C[],
) {
  return Object.fromEntries(codes.map((code) => [code, errorAnswer(text[code])]));
}
