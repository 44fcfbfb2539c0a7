import type { Metrics } from "@hookflow/observability";
import { Counter } from "prom-client";

export interface ApiMetrics {
  /** Login attempts by outcome; `success` + `failure` are the password checks made. */
  loginAttempts: Counter<"outcome">;
  /** Requests refused by the per-credential rate limit. */
  rateLimited: Counter<"credential">;
}

function counter<L extends string>(
  metrics: Metrics,
  config: { name: string; help: string; labelNames: readonly L[] },
): Counter<L> {
  // A process running several apps may hand the same registry to a second api.
  const existing = metrics.registry.getSingleMetric(config.name) as Counter<L> | undefined;
  return existing ?? new Counter({ ...config, registers: [metrics.registry] });
}

/** The api's own series, on the process registry. */
export function createApiMetrics(metrics: Metrics): ApiMetrics {
  return {
    loginAttempts: counter(metrics, {
      name: "hookflow_api_login_attempts_total",
      help: "Login attempts by outcome (throttled attempts never check a password)",
      labelNames: ["outcome"] as const,
    }),
    rateLimited: counter(metrics, {
      name: "hookflow_api_rate_limited_total",
      help: "API requests answered 429 by the per-credential rate limit",
      labelNames: ["credential"] as const,
    }),
  };
}
