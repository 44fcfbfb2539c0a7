import type { Metrics } from "@hookflow/observability";
import { Counter, Gauge, Histogram } from "prom-client";

export interface WorkerMetrics {
  /** Delivery attempts by outcome: success, failure, chaos, refused. */
  attempts: Counter<"outcome" | "target">;
  /** Jobs by how they ended: delivered, retrying, failed, filtered, deferred, skipped, ... */
  jobs: Counter<"lane" | "outcome">;
  /** Latency of delivery attempts that made a request. */
  deliveryLatency: Histogram<"target">;
  /** Waiting + delayed + active jobs per lane, read at scrape time. */
  queueDepth: Gauge<"lane" | "state">;
}

/**
 * Worker metrics on the process registry. `readDepth` is called at scrape time, so the gauge is
 * never stale and costs nothing between scrapes.
 */
export function createWorkerMetrics(
  metrics: Metrics,
  readDepth: () => Promise<Array<{ lane: string; state: string; count: number }>>,
): WorkerMetrics {
  const registers = [metrics.registry];
  return {
    attempts: new Counter({
      name: "hookflow_delivery_attempts_total",
      help: "Delivery attempts by outcome",
      labelNames: ["outcome", "target"] as const,
      registers,
    }),
    jobs: new Counter({
      name: "hookflow_delivery_jobs_total",
      help: "Delivery jobs processed, by lane and outcome",
      labelNames: ["lane", "outcome"] as const,
      registers,
    }),
    deliveryLatency: new Histogram({
      name: "hookflow_delivery_latency_seconds",
      help: "Latency of delivery requests",
      labelNames: ["target"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    queueDepth: new Gauge({
      name: "hookflow_delivery_queue_depth",
      help: "Jobs in each delivery lane by state",
      labelNames: ["lane", "state"] as const,
      registers,
      async collect() {
        const rows = await readDepth().catch(() => []);
        this.reset();
        for (const row of rows) this.set({ lane: row.lane, state: row.state }, row.count);
      },
    }),
  };
}
