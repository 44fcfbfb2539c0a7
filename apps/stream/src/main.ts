import { serve } from "@hono/node-server";
import { startMetricsServer } from "@hookflow/observability";
import { createStreamApp } from "./app.js";
import { readEnv } from "./env.js";
import { buildStreamServices } from "./services.js";

async function main(): Promise<void> {
  const config = readEnv();
  const services = buildStreamServices({ config });
  for (const warning of config.warnings) services.logger.warn(warning);
  // Prometheus metrics on their own listener (METRICS_PORT), never on the public port.
  if (config.metrics) await startMetricsServer({ metrics: services.metrics, ...config.metrics });
  const app = createStreamApp(services);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) =>
    services.logger.info({ port: info.port }, "stream listening"),
  );
  const shutdown = () => {
    services.logger.info("shutting down");
    server.close(() => {
      services.close().finally(() => process.exit(0));
    });
    // Open event streams would hold the server: end them (clients reconnect to another replica
    // with Last-Event-ID), then cut whatever is left after a short grace period.
    services.streams.endAll();
    setTimeout(() => "closeAllConnections" in server && server.closeAllConnections(), 5000).unref();
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
