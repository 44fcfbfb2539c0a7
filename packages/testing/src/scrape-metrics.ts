import { type Metrics, startMetricsServer } from "@hookflow/observability";

/**
 * One scrape of `metrics` the way Prometheus does it: a metrics listener on a free loopback
 * port, `GET /metrics` over real HTTP, then the listener closes.
 */
export async function scrapeMetrics(
  metrics: Metrics,
  token: string | null = null,
): Promise<{ status: number; text: string }> {
  const server = await startMetricsServer({ metrics, host: "127.0.0.1", port: 0, token });
  try {
    const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    return { status: res.status, text: await res.text() };
  } finally {
    await server.close();
  }
}
