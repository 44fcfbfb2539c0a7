import { readRawBody } from "@hookflow/domain";
import type { Context, MiddlewareHandler } from "hono";

/**
 * Largest body of the routes that need no credential (signup, login, emailed approval links):
 * they take a few fields, and anyone can call them.
 */
export const PUBLIC_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Refuses a request body past `limitOf(c)` bytes with 413 in the error shape, before anything
 * parses it, with the ingress's own reader: a declared Content-Length over the limit is refused
 * without reading a byte, and a body without one (chunked) is counted while it is read and
 * dropped as soon as it passes the limit. A body within the limit is handed on in memory, so the
 * route's parsers read it as usual.
 */
export function bodyLimit(limitOf: (c: Context) => number): MiddlewareHandler {
  return async (c, next) => {
    const request = c.req.raw;
    if (request.body === null || request.method === "GET" || request.method === "HEAD") {
      return next();
    }
    const body = await readRawBody(request, limitOf(c));
    c.req.raw = new Request(request, { body });
    await next();
  };
}
