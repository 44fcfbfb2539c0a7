// Copied from apps/api/src/http/error-handler.ts (kept minimal and identical on purpose; if a
// shared http package appears, both apps should import it from there).
import { AppError, errorBody, statusOfError } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

function respond(c: Context, status: number, message: string, headers?: Record<string, string>) {
  for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
  return c.json(errorBody(status, message), status as ContentfulStatusCode);
}

/**
 * The one error handler of every Hookflow app: typed domain errors map to their status, Hono's
 * own HTTP errors (malformed JSON, bad content type) keep theirs, and anything else is logged
 * with its cause and answered 500 with a generic message.
 */
export function createErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof AppError) {
      return respond(c, statusOfError(error.code), error.message, error.headers);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 && /JSON/i.test(error.message)
          ? "Malformed JSON in request body"
          : error.message || "Request failed";
      return respond(c, error.status, message);
    }
    logger.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return respond(c, 500, "Internal server error");
  };
}

export const notFoundHandler: NotFoundHandler = (c) =>
  c.json(errorBody(404, `Route ${c.req.method} ${c.req.path} not found`), 404);
