import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerEdgeRouteDocs } from "./edge-routes.js";
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  registerBearerScheme,
} from "./openapi-document.js";
import { renderDocsHtml } from "./render-docs-html.js";

/**
 * `GET /api/openapi.json` and `GET /api/docs`, both public. The document is generated on each
 * request, so it lists every route registered with `app.openapi`, whenever it was added. Neither
 * route appears in the document itself: they are plain `app.get` routes. (Metrics are not on
 * the public port at all: see `startMetricsServer`.)
 */
export function registerDocsRoutes(app: ApiApp, services: ApiServices): void {
  registerBearerScheme(app);
  registerEdgeRouteDocs(app);
  // Generating takes tens of milliseconds; regenerate only when a definition was added.
  let cached: { definitions: number; document: OpenApiDocument; html?: string } | undefined;
  const current = () => {
    const definitions = app.openAPIRegistry.definitions.length;
    if (cached?.definitions !== definitions) {
      cached = { definitions, document: buildOpenApiDocument(app, services) };
    }
    return cached;
  };
  app.get("/api/openapi.json", (c) => c.json(current().document));
  app.get("/api/docs", (c) => {
    const entry = current();
    entry.html ??= renderDocsHtml(entry.document);
    c.header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    return c.html(entry.html);
  });
}
