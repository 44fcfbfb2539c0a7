import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "./logger.js";
import type { Metrics } from "./metrics.js";

/**
 * One wide log line and one metric sample per request. The route label is the matched pattern
 * (`/api/webhooks/:id`), never the raw path, so label cardinality stays bounded.
 */
export function observeHttp(options: {
  role: string;
  logger: Logger;
  metrics: Metrics;
}): MiddlewareHandler {
  const { role, logger, metrics } = options;
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id") ?? crypto.randomUUID();
    c.header("X-Request-Id", requestId);
    await next();
    const seconds = (performance.now() - started) / 1000;
    let route = "unmatched";
    try {
      route =
        c.res.status === 404 && routePath(c, -1) === "*"
          ? "unmatched"
          : routePath(c, -1) || "unmatched";
    } catch {
      route = "unmatched";
    }
    const status = c.res.status;
    metrics.httpRequests.inc({ role, method: c.req.method, route, status: String(status) });
    metrics.httpDuration.observe({ role, method: c.req.method, route }, seconds);
    const line = {
      requestId,
      method: c.req.method,
      // Ingress tokens are credentials: never log them.
      path: c.req.path.replace(/^\/api\/in\/[^/]+/, "/api/in/:token"),
      route,
      status,
      durationMs: Math.round(seconds * 10000) / 10,
    };
    if (status >= 500) logger.error(line, "request");
    else logger.debug(line, "request");
  };
}
