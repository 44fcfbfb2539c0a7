import { RateLimitedError } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { FixedWindow } from "@hookflow/services";
import type { MiddlewareHandler } from "hono";
import type { AuthEnv } from "../auth/authenticate.js";

const WINDOW_MS = 60_000;

export interface ApiRateLimitOptions {
  /** Requests per minute per credential; 0 turns the limit off. */
  perMinute: number;
  window: FixedWindow;
  /** The Redis key of one credential's window. */
  keyOf: (credentialId: string) => string;
  logger: Logger;
  onLimited?: (kind: "session" | "apiKey") => void;
}

/**
 * The control plane's rate limit: `perMinute` requests per API key and per session token in a
 * fixed one-minute window shared by every api replica through Redis. Runs after authentication
 * (requests without a credential never reach it). Every answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy`; past the limit the
 * answer is 429 with `Retry-After`. If Redis cannot be reached the request is let through (and
 * logged): the limit protects the api, it must not take it down.
 */
export function apiRateLimit(options: ApiRateLimitOptions): MiddlewareHandler<AuthEnv> {
  const { perMinute } = options;
  const policy = `${perMinute};w=${WINDOW_MS / 1000}`;
  return async (c, next) => {
    const actor = c.get("actor");
    if (perMinute <= 0 || !actor) return next();
    let counted: Awaited<ReturnType<FixedWindow>>;
    try {
      counted = await options.window(options.keyOf(actor.credentialId), WINDOW_MS);
    } catch (error) {
      options.logger.warn({ err: error }, "api rate limit unavailable; request let through");
      return next();
    }
    const resetSeconds = Math.max(1, Math.ceil(counted.resetMs / 1000));
    c.header("RateLimit-Limit", String(perMinute));
    c.header("RateLimit-Remaining", String(Math.max(0, perMinute - counted.count)));
    c.header("RateLimit-Reset", String(resetSeconds));
    c.header("RateLimit-Policy", policy);
    if (counted.count > perMinute) {
      options.onLimited?.(actor.kind);
      throw new RateLimitedError(
        resetSeconds,
        `Rate limit of ${perMinute} requests per minute exceeded for this credential`,
      );
    }
    await next();
  };
}
