import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorBody } from "@hookflow/domain";
import { AggregatorRegistry, type Registry } from "prom-client";
import type { Metrics } from "./metrics.js";

/** A registry's metrics as JSON, as another process sends them (`registry.getMetricsAsJSON()`). */
export type MetricsSnapshot = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

export interface MetricsServerOptions {
  metrics: Metrics;
  host: string;
  /** 0 lets the kernel pick a free port (tests). */
  port: number;
  /** When set, a scrape needs `Authorization: Bearer <token>` (401 otherwise). */
  token: string | null;
  /**
   * Snapshots of other processes' registries (a `hookflow start`'s worker processes), merged with
   * this process's into one exposition: counters and histograms summed per label set.
   */
  others?: () => Promise<MetricsSnapshot[]>;
}

export interface MetricsServer {
  port: number;
  close: () => Promise<void>;
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** Constant-time check of the Authorization header against the expected bearer token. */
function authorized(request: IncomingMessage, token: string | null): boolean {
  if (token === null) return true;
  const header = request.headers.authorization ?? "";
  return timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

function answer(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(errorBody(status, message)));
}

async function exposition(
  registry: Registry,
  others: MetricsServerOptions["others"],
): Promise<string> {
  if (!others) return registry.metrics();
  const snapshots = [await registry.getMetricsAsJSON(), ...(await others())];
  return AggregatorRegistry.aggregate(snapshots).metrics();
}

/**
 * The process's Prometheus endpoint, on a listener of its own (`METRICS_HOST:METRICS_PORT`) so
 * the public port and the reverse proxy never expose it: `GET /metrics` answers the registry's
 * text exposition; anything else 404 in the error shape. One per process, whatever roles run
 * in it: they share one registry.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { registry } = options.metrics;
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      answer(response, 404, `Route ${request.method} ${path} not found`);
      return;
    }
    if (!authorized(request, options.token)) {
      response.setHeader("www-authenticate", 'Bearer realm="metrics"');
      answer(response, 401, "A valid metrics token is required");
      return;
    }
    exposition(registry, options.others).then(
      (text) => {
        response.writeHead(200, { "content-type": registry.contentType });
        response.end(request.method === "HEAD" ? undefined : text);
      },
      () => answer(response, 500, "Internal server error"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
