import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useSession } from "../../api/api-context";
import { call } from "../../api/client";
import { formatMs } from "../../ui/format";
import { QueryView } from "../../ui/states";
import { Lines, StackedBars } from "./charts";

const RANGES = {
  "1h": { ms: 3_600_000, buckets: 12 },
  "24h": { ms: 86_400_000, buckets: 24 },
  "7d": { ms: 7 * 86_400_000, buckets: 28 },
} as const;
type Range = keyof typeof RANGES;

function label(iso: string, range: Range): string {
  const date = new Date(iso);
  return range === "7d"
    ? date.toLocaleDateString(undefined, { month: "short", day: "numeric" })
    : date.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

/** Totals, latency percentiles and the charts of one webhook over a chosen range. */
export function WebhookStats({ webhookId }: { webhookId: string }) {
  const { api, organizationId } = useSession();
  const [range, setRange] = useState<Range>("24h");
  const query = { params: { query: { webhookId } } };
  const stats = useQuery({
    queryKey: ["stats", organizationId, webhookId],
    queryFn: () => call(api.GET("/api/events/stats", query)),
    refetchInterval: 10_000,
  });
  const latency = useQuery({
    queryKey: ["latency", organizationId, webhookId],
    queryFn: () => call(api.GET("/api/events/latency", query)),
    refetchInterval: 10_000,
  });
  const timeline = useQuery({
    queryKey: ["timeline", organizationId, webhookId, range],
    queryFn: () => {
      const to = new Date(Math.ceil(Date.now() / 60_000) * 60_000);
      const from = new Date(to.getTime() - RANGES[range].ms);
      return call(
        api.GET("/api/events/timeline", {
          params: {
            query: {
              webhookId,
              from: from.toISOString(),
              to: to.toISOString(),
              buckets: RANGES[range].buckets,
            },
          },
        }),
      );
    },
    refetchInterval: 15_000,
  });
  return (
    <section className="card stack" aria-labelledby="stats-h">
      <div className="spread">
        <h2 id="stats-h" style={{ margin: 0 }}>
          Deliveries
        </h2>
        <div className="tabs" role="tablist" aria-label="Range">
          {(Object.keys(RANGES) as Range[]).map((r) => (
            <button
              key={r}
              type="button"
              role="tab"
              aria-selected={range === r}
              onClick={() => setRange(r)}
            >
              {r}
            </button>
          ))}
        </div>
      </div>
      <div className="grid grid-4">
        <div className="stat">
          <span className="label">Events</span>
          <span className="value">{stats.data?.total ?? "—"}</span>
        </div>
        <div className="stat">
          <span className="label">Success rate</span>
          <span className="value">{stats.data ? `${stats.data.successRate}%` : "—"}</span>
        </div>
        <div className="stat">
          <span className="label">Failed</span>
          <span className="value">{stats.data?.failed ?? "—"}</span>
        </div>
        <div className="stat">
          <span className="label">Latency avg / p95 / p99</span>
          <span className="value compact">
            {latency.data && stats.data && stats.data.total > 0
              ? `${formatMs(latency.data.avg)} / ${formatMs(latency.data.p95)} / ${formatMs(latency.data.p99)}`
              : "—"}
          </span>
        </div>
      </div>
      <QueryView query={timeline} label="Loading timeline…">
        {(t) => {
          const labels = t.buckets.map((b) => label(b.start, range));
          return (
            <div className="grid grid-2">
              <StackedBars
                title="Events over time"
                labels={labels}
                series={[
                  {
                    name: "delivered",
                    color: "#12b76a",
                    values: t.buckets.map((b) => b.delivered),
                  },
                  { name: "failed", color: "#f04438", values: t.buckets.map((b) => b.failed) },
                  {
                    name: "other",
                    color: "#a4a9c4",
                    values: t.buckets.map((b) => b.total - b.delivered - b.failed),
                  },
                ]}
              />
              <Lines
                title="Latency of successful attempts"
                unit=" ms"
                labels={labels}
                series={[
                  { name: "p50", color: "#4f46e5", values: t.buckets.map((b) => b.p50) },
                  { name: "p95", color: "#f79009", values: t.buckets.map((b) => b.p95) },
                  { name: "p99", color: "#d92d20", values: t.buckets.map((b) => b.p99) },
                ]}
              />
            </div>
          );
        }}
      </QueryView>
    </section>
  );
}
