import { liveApiKeyListsOrigin } from "@hookflow/db";
import { createErrorHandler, notFoundHandler, observeHttp } from "@hookflow/observability";
import { authenticate } from "./auth/authenticate.js";
import { serveConsole } from "./console/serve-console.js";
import { type ApiApp, newApiApp } from "./http/api-app.js";
import { apiRateLimit } from "./http/api-rate-limit.js";
import { bodyLimit, PUBLIC_BODY_LIMIT_BYTES } from "./http/body-limit.js";
import { apiCors } from "./http/cors.js";
import { isPublicPath } from "./http/public-paths.js";
import { hasRoute } from "./http/route-gate.js";
import { registerEmailActionOutbox } from "./routes/actions/email-outbox.js";
import { registerGmailLabels } from "./routes/actions/gmail-labels.js";
import { registerTargetRoutes } from "./routes/additional-targets/register-target-routes.js";
import { registerApprovalRoutes } from "./routes/approvals/register-approval-routes.js";
import { registerIdentityRoutes } from "./routes/auth/index.js";
import { registerCanvasSnapshotRoutes } from "./routes/canvas-snapshots/register-canvas-snapshot-routes.js";
import { registerCredentialRoutes } from "./routes/credentials/register-credential-routes.js";
import { registerDocsRoutes } from "./routes/docs/register-docs-routes.js";
import { registerEventRoutes } from "./routes/events/index.js";
import { registerHealth } from "./routes/health/health.js";
import { registerNodeRoutes } from "./routes/nodes/register-node-routes.js";
import { registerListScheduledRuns } from "./routes/scheduled-workflows/list-runs.js";
import { registerWebhookRoutes } from "./routes/webhooks/register-webhook-routes.js";
import type { ApiServices } from "./services.js";

/**
 * Builds the control-plane app. No side effects: tests call `app.request(...)` on it, and
 * `hookflow start` serves it next to the other apps.
 */
export function createApiApp(services: ApiServices): ApiApp {
  const app = newApiApp();
  app.onError(createErrorHandler(services.logger));
  // Paths no route answers: the web console's files and client routes, else the JSON 404.
  app.notFound(serveConsole(services.console, notFoundHandler));
  app.use("*", observeHttp({ role: "api", logger: services.logger, metrics: services.metrics }));

  const db = services.db.db;
  app.use(
    "/api/*",
    apiCors({ originListed: (origin) => liveApiKeyListsOrigin(db, origin, services.now()) }),
  );
  // An unknown route is 404 before any credential is asked for.
  app.use("/api/*", async (c, next) => (hasRoute(c) ? next() : notFoundHandler(c)));
  const auth = authenticate({ db, now: services.now });
  app.use("/api/*", async (c, next) => (isPublicPath(c.req.path) ? next() : auth(c, next)));
  app.use(
    "/api/*",
    apiRateLimit({
      perMinute: services.config.apiRateLimitPerMinute,
      window: services.fixedWindow,
      keyOf: (credentialId) => services.keys.rateWindow(`api:${credentialId}`),
      logger: services.logger,
      onLimited: (kind) => services.apiMetrics.rateLimited.inc({ credential: kind }),
    }),
  );
  // Public routes take small bodies; the rest up to MAX_PAYLOAD_BYTES. Checked after the
  // credential, so an anonymous caller cannot make the api read a large body.
  const { maxPayloadBytes } = services.config;
  app.use(
    "/api/*",
    bodyLimit((c) => (isPublicPath(c.req.path) ? PUBLIC_BODY_LIMIT_BYTES : maxPayloadBytes)),
  );

  registerHealth(app, services);
  registerIdentityRoutes(app, services);
  registerWebhookRoutes(app, services);
  registerEventRoutes(app, services);
  registerNodeRoutes(app, services);
  registerTargetRoutes(app, services);
  registerListScheduledRuns(app, services);
  registerApprovalRoutes(app, services);
  registerCanvasSnapshotRoutes(app, services);
  registerCredentialRoutes(app, services);
  registerEmailActionOutbox(app, services);
  registerGmailLabels(app, services);
  registerDocsRoutes(app, services);
  return app;
}
