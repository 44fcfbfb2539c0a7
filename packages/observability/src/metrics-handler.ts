import type { Context } from "hono";
import type { Metrics } from "./metrics.js";

/** Prometheus text exposition; mounted at `/metrics` by every app (outside `/api`). */
export function metricsHandler(metrics: Metrics) {
  return async (c: Context) => {
    c.header("Content-Type", metrics.registry.contentType);
    return c.body(await metrics.registry.metrics());
  };
}
