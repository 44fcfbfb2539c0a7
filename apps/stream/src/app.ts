import { createErrorHandler, notFoundHandler, observeHttp } from "@hookflow/observability";
import { Hono } from "hono";
import { registerStreamEvent } from "./routes/events/stream-event.js";
import { registerHealth } from "./routes/health/health.js";
import { registerStreamWebhook } from "./routes/webhooks/stream-webhook.js";
import type { StreamServices } from "./services.js";

/**
 * Builds the stream app (server-sent pipeline steps). No side effects: tests call
 * `app.request(...)` on it, and `hookflow start` serves it next to the other apps.
 */
export function createStreamApp(services: StreamServices): Hono {
  const app = new Hono();
  app.onError(createErrorHandler(services.logger));
  app.notFound(notFoundHandler);
  app.use("*", observeHttp({ role: "stream", logger: services.logger, metrics: services.metrics }));
  registerHealth(app, services);
  registerStreamEvent(app, services);
  registerStreamWebhook(app, services);
  return app;
}
