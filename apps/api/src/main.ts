import { serve } from "@hono/node-server";
import { migrateDatabase } from "@hookflow/db";
import { startMetricsServer } from "@hookflow/observability";
import { ensureBootstrapUser } from "@hookflow/services";
import { createApiApp } from "./app.js";
import { readEnv } from "./env.js";
import { buildApiServices } from "./services.js";

async function main(): Promise<void> {
  const config = readEnv();
  const services = buildApiServices({ config });
  for (const warning of config.warnings) services.logger.warn(warning);
  // Prometheus metrics on their own listener (METRICS_PORT), never on the public port.
  if (config.metrics) await startMetricsServer({ metrics: services.metrics, ...config.metrics });
  await migrateDatabase({
    url: config.databaseUrl,
    keyRing: services.keyRing,
    log: (m) => services.logger.info(m),
  });
  await ensureBootstrapUser({ db: services.db.db, now: services.now }, config);
  const app = createApiApp(services);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) =>
    services.logger.info({ port: info.port }, "api listening"),
  );
  const shutdown = () => {
    services.logger.info("shutting down");
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
