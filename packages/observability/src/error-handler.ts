import { AppError, errorBody, statusOfError } from "@hookflow/domain";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "./logger.js";
import { maskCredentials } from "./mask-credentials.js";

function respond(c: Context, status: number, message: string, headers?: Record<string, string>) {
  for (const [name, value] of Object.entries(headers ?? {})) c.header(name, value);
  return c.json(errorBody(status, message), status as ContentfulStatusCode);
}

/**
 * The one error handler of every Hookflow app: typed domain errors map to their status, Hono's
 * own HTTP errors (malformed JSON, bad content type) keep theirs, and anything else is logged
 * with its cause and answered 500 with a generic message. Paths are logged masked (an ingress
 * token is a credential).
 */
export function createErrorHandler(logger: Logger): ErrorHandler {
  return (error, c) => {
    if (error instanceof AppError) {
      if (error.code === "unavailable") {
        logger.warn(
          { err: error, cause: error.cause, path: maskCredentials(c.req.path) },
          error.message,
        );
      }
      return respond(c, statusOfError(error.code), error.message, error.headers);
    }
    if (error instanceof HTTPException) {
      const message =
        error.status === 400 && /JSON/i.test(error.message)
          ? "Malformed JSON in request body"
          : error.message || "Request failed";
      return respond(c, error.status, message);
    }
    logger.error(
      { err: error, method: c.req.method, path: maskCredentials(c.req.path) },
      "unhandled error",
    );
    return respond(c, 500, "Internal server error");
  };
}

export const notFoundHandler: NotFoundHandler = (c) =>
  c.json(errorBody(404, `Route ${c.req.method} ${c.req.path} not found`), 404);
