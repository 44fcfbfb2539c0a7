import { serve } from "@hono/node-server";
import { startMetricsServer } from "@hookflow/observability";
import { createIngressApp } from "./app.js";
import { readEnv } from "./env.js";
import { buildIngressServices } from "./services.js";

async function main(): Promise<void> {
  const config = readEnv();
  const services = buildIngressServices({ config });
  for (const warning of config.warnings) services.logger.warn(warning);
  // Prometheus metrics on their own listener (METRICS_PORT), never on the public port.
  if (config.metrics) await startMetricsServer({ metrics: services.metrics, ...config.metrics });
  const app = createIngressApp(services);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) =>
    services.logger.info({ port: info.port }, "ingress listening"),
  );
  const shutdown = () => {
    services.logger.info("shutting down");
    // Sync-mode waits answer 408 now rather than hold shutdown for up to 120 s. Then stop taking
    // requests, let the open ones finish, flush batches and close connections.
    services.sync.releaseAll();
    server.close(() => {
      services.close().finally(() => process.exit(0));
    });
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
