import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/**
 * CORS for browser clients using API keys. A preflight carries no credential, so it is answered
 * for any origin; the real request is then checked against the key's `allowedOrigins` by
 * `authenticate` (403 for an origin the key does not allow). No cookies are used, so
 * credentials stay off.
 */
export function apiCors(): MiddlewareHandler {
  return cors({
    origin: (origin) => origin || null,
    allowMethods: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    allowHeaders: ["Authorization", "Content-Type", "X-Organization-Id"],
    exposeHeaders: ["X-Total-Count", "Retry-After"],
    maxAge: 600,
  });
}
