import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "./logger.js";
import { maskCredentials } from "./mask-credentials.js";
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
  // Label children per (method, route, status): prom-client hashes a label object on every call,
  // a measurable share of a fast request; the combinations are few and bounded by the routes.
  const counters = new Map<string, ReturnType<typeof metrics.httpRequests.labels>>();
  const histograms = new Map<string, ReturnType<typeof metrics.httpDuration.labels>>();
  return async (c, next) => {
    const started = performance.now();
    const requestId = c.req.header("x-request-id") ?? crypto.randomUUID();
    c.header("X-Request-Id", requestId);
    await next();
    const seconds = (performance.now() - started) / 1000;
    let route = "unmatched";
    try {
      const matched = routePath(c, -1);
      // A 404 that only matched a catch-all middleware (`*`, `/*`) names no route.
      const catchAll = matched === "*" || matched === "/*";
      route = (c.res.status === 404 && catchAll) || !matched ? "unmatched" : matched;
    } catch {
      route = "unmatched";
    }
    const status = c.res.status;
    const method = c.req.method;
    const routeKey = `${method} ${route}`;
    const countKey = `${routeKey} ${status}`;
    let counter = counters.get(countKey);
    if (!counter) {
      counter = metrics.httpRequests.labels({ role, method, route, status: String(status) });
      counters.set(countKey, counter);
    }
    counter.inc();
    let histogram = histograms.get(routeKey);
    if (!histogram) {
      histogram = metrics.httpDuration.labels({ role, method, route });
      histograms.set(routeKey, histogram);
    }
    histogram.observe(seconds);
    const level = status >= 500 ? "error" : "debug";
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      requestId,
      method,
      // Ingress tokens are credentials: never log them.
      path: maskCredentials(c.req.path),
      route,
      status,
      durationMs: Math.round(seconds * 10000) / 10,
    };
    logger[level](line, "request");
  };
}
