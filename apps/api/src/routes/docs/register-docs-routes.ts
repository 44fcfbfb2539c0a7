import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerEdgeRouteDocs } from "./edge-routes.js";
import {
  buildOpenApiDocument,
  type OpenApiDocument,
  registerBearerScheme,
} from "./openapi-document.js";
import { REFERENCE_CSP, REFERENCE_PAGE, referenceAsset } from "./reference-ui.js";

/**
 * `GET /api/openapi.json`, `GET /api/docs` (Swagger UI) and its assets, all public. The document
 * is generated on each request, so it lists every route registered with `app.openapi`, whenever
 * it was added. None of these routes appears in the document itself: they are plain `app.get`
 * routes. (Metrics are not on
 * the public port at all: see `startMetricsServer`.)
 */
export function registerDocsRoutes(app: ApiApp, services: ApiServices): void {
  registerBearerScheme(app);
  registerEdgeRouteDocs(app);
  // Generating takes tens of milliseconds; regenerate only when a definition was added.
  let cached: { definitions: number; document: OpenApiDocument } | undefined;
  const current = () => {
    const definitions = app.openAPIRegistry.definitions.length;
    if (cached?.definitions !== definitions) {
      cached = { definitions, document: buildOpenApiDocument(app, services) };
    }
    return cached;
  };
  app.get("/api/openapi.json", (c) => c.json(current().document));
  app.get("/api/docs", (c) => {
    c.header("Content-Security-Policy", REFERENCE_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    return c.html(REFERENCE_PAGE);
  });
  app.get("/api/docs/assets/:name", async (c) => {
    const asset = referenceAsset(c.req.param("name"));
    if (!asset) return c.notFound();
    const { body, type } = await asset;
    c.header("Content-Type", type);
    c.header("Cache-Control", "public, max-age=3600");
    c.header("X-Content-Type-Options", "nosniff");
    return c.body(body);
  });
}
