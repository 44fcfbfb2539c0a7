import { createErrorHandler, notFoundHandler, observeHttp } from "@hookflow/observability";
import { Hono } from "hono";
import { registerHealth } from "./routes/health.js";
import { registerIngest } from "./routes/ingest.js";
import type { IngressServices } from "./services.js";

/**
 * Builds the ingress app. No side effects: tests call `app.request(...)` on it, and
 * `hookflow start` serves it next to the other apps.
 */
export function createIngressApp(services: IngressServices): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(services.logger));
  app.notFound(notFoundHandler);
  app.use(
    "*",
    observeHttp({ role: "ingress", logger: services.logger, metrics: services.metrics }),
  );
  registerHealth(app, services);
  registerIngest(app, services);
  return app;
}
