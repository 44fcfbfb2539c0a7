import type { MiddlewareHandler } from "hono";
import type { AuthEnv } from "../auth/authenticate.js";

const ALLOW_METHODS = "GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS";
const ALLOW_HEADERS = "Authorization,Content-Type,X-Organization-Id";
const EXPOSE_HEADERS = [
  "X-Total-Count",
  "X-Request-Id",
  "Retry-After",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "RateLimit-Policy",
].join(",");
/** Browsers cache an accepted preflight this long (seconds). */
const PREFLIGHT_MAX_AGE = 600;

export interface ApiCorsOptions {
  /** Whether some live API key lists this origin in its `allowedOrigins`. */
  originListed: (origin: string) => Promise<boolean>;
}

/**
 * CORS for browser clients of API keys. A preflight carries no credential, so it is answered
 * for the origins keys list: an origin some live key names in `allowedOrigins` gets the allow
 * headers, any other origin gets none (the browser then refuses the request). Keys with an empty
 * list serve servers and same-origin pages; a browser page on another origin uses a key that
 * lists it. The real request is checked against its own key by `authenticate` (403), and that
 * refusal carries no allow-origin header either. No cookies are used, so credentials stay off.
 */
export function apiCors(options: ApiCorsOptions): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS") {
      const headers = new Headers({ Vary: "Origin" });
      if (origin && (await options.originListed(origin))) {
        headers.set("Access-Control-Allow-Origin", origin);
        headers.set("Access-Control-Allow-Methods", ALLOW_METHODS);
        headers.set("Access-Control-Allow-Headers", ALLOW_HEADERS);
        headers.set("Access-Control-Max-Age", String(PREFLIGHT_MAX_AGE));
      }
      return new Response(null, { status: 204, headers });
    }
    if (origin) {
      c.header("Access-Control-Allow-Origin", origin);
      c.header("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    }
    await next();
    c.header("Vary", "Origin", { append: true });
    if (c.get("originRefused")) {
      c.header("Access-Control-Allow-Origin", undefined);
      c.header("Access-Control-Expose-Headers", undefined);
    }
  };
}
