import type { Metrics } from "@hookflow/observability";
import { Counter, Histogram, type Registry } from "prom-client";

export type RejectReason =
  | "not_found"
  | "too_large"
  | "invalid_body"
  | "signature"
  | "rate_limited"
  | "unavailable"
  | "error";

export interface IngressMetrics {
  accepted: Counter<"mode">;
  deduplicated: Counter;
  rejected: Counter<"reason">;
  batchSize: Histogram<"outcome">;
  enqueueFailed: Counter;
}

function reuse<T>(registry: Registry, name: string, create: () => T): T {
  // A process running several apps may hand the same registry to a second ingress.
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

/** The ingress's own series, on the process registry served at `/metrics`. */
export function createIngressMetrics(metrics: Metrics): IngressMetrics {
  const registers = [metrics.registry];
  return {
    accepted: reuse(
      metrics.registry,
      "hookflow_ingress_events_accepted_total",
      () =>
        new Counter({
          name: "hookflow_ingress_events_accepted_total",
          help: "Events accepted and stored by the ingress (mode: enqueued or parked for an inactive webhook)",
          labelNames: ["mode"] as const,
          registers,
        }),
    ),
    deduplicated: reuse(
      metrics.registry,
      "hookflow_ingress_events_deduplicated_total",
      () =>
        new Counter({
          name: "hookflow_ingress_events_deduplicated_total",
          help: "Ingress requests answered with the original event of a duplicate",
          registers,
        }),
    ),
    rejected: reuse(
      metrics.registry,
      "hookflow_ingress_requests_rejected_total",
      () =>
        new Counter({
          name: "hookflow_ingress_requests_rejected_total",
          help: "Ingress requests refused, by reason",
          labelNames: ["reason"] as const,
          registers,
        }),
    ),
    batchSize: reuse(
      metrics.registry,
      "hookflow_ingress_batch_size",
      () =>
        new Histogram({
          name: "hookflow_ingress_batch_size",
          help: "Events per group-commit batch (one INSERT and one enqueue each)",
          labelNames: ["outcome"] as const,
          buckets: [1, 2, 5, 10, 20, 50, 100, 200],
          registers,
        }),
    ),
    enqueueFailed: reuse(
      metrics.registry,
      "hookflow_ingress_enqueue_failures_total",
      () =>
        new Counter({
          name: "hookflow_ingress_enqueue_failures_total",
          help: "Stored events whose enqueue failed after their 202; the worker's sweeper queues them",
          registers,
        }),
    ),
  };
}
