import { serve } from "@hono/node-server";
import { startMetricsServer } from "@hookflow/observability";
import { readEnv } from "./env.js";
import { createWorkerHttpApp } from "./http/worker-app.js";
import { buildWorkerServices } from "./services.js";
import { startWorker } from "./start-worker.js";

async function main(): Promise<void> {
  const config = readEnv();
  const services = buildWorkerServices({ config });
  for (const warning of config.warnings) services.logger.warn(warning);
  // Prometheus metrics on their own listener (METRICS_PORT), never on the public port.
  if (config.metrics) await startMetricsServer({ metrics: services.metrics, ...config.metrics });
  const worker = await startWorker(services);
  const app = createWorkerHttpApp(services);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) =>
    services.logger.info({ port: info.port }, "worker http listening"),
  );
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info({ signal }, "shutting down: finishing in-flight deliveries");
    server.close();
    worker
      .close()
      .then(() => services.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          services.logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.once("SIGTERM", () => shutdown("SIGTERM"));
  process.once("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
