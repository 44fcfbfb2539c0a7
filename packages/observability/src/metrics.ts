import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"role" | "method" | "route" | "status">;
  httpDuration: Histogram<"role" | "method" | "route">;
}

/** A registry per process (never the global one), so several apps can share one process. */
export function createMetrics(options: { role: string; defaultMetrics?: boolean }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ app: "hookflow" });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: "hookflow_http_requests_total",
    help: "HTTP requests served",
    labelNames: ["role", "method", "route", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "hookflow_http_request_duration_seconds",
    help: "HTTP request duration",
    labelNames: ["role", "method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration };
}
