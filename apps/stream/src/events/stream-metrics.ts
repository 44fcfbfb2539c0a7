import type { Metrics } from "@hookflow/observability";
import { Counter, Gauge } from "prom-client";

export interface StreamMetrics {
  /** Streams by how they ended: done, timeout, client, slow_client, shutdown. */
  ended: Counter<"reason">;
  /** Streams refused a slot (429), by which cap: token or process. */
  refused: Counter<"reason">;
}

/** Stream metrics on the process registry; the open-stream gauge is read at scrape time. */
export function createStreamMetrics(
  metrics: Metrics,
  read: { openStreams: () => number; watchers: () => number },
): StreamMetrics {
  const registers = [metrics.registry];
  new Gauge({
    name: "hookflow_stream_open_streams",
    help: "Event streams this process holds open",
    registers,
    collect() {
      this.set(read.openStreams());
    },
  });
  new Gauge({
    name: "hookflow_stream_hub_watchers",
    help: "Watchers on this process's one steps subscription",
    registers,
    collect() {
      this.set(read.watchers());
    },
  });
  return {
    ended: new Counter({
      name: "hookflow_stream_ended_total",
      help: "Event streams ended, by reason",
      labelNames: ["reason"] as const,
      registers,
    }),
    refused: new Counter({
      name: "hookflow_stream_refused_total",
      help: "Event streams refused with 429, by the cap they hit (token or process)",
      labelNames: ["reason"] as const,
      registers,
    }),
  };
}
