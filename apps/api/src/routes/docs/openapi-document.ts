import type { ApiApp } from "../../http/api-app.js";
import { isPublicPath } from "../../http/public-paths.js";
import type { ApiServices } from "../../services.js";

export type OpenApiDocument = ReturnType<ApiApp["getOpenAPI31Document"]>;

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const BEARER_SCHEME = "bearerAuth";

/** Public routes (decisions.md section 0) besides the fixed list of `isPublicPath`. */
function isPublicOperation(path: string): boolean {
  return (
    isPublicPath(path) ||
    path.startsWith("/api/in/") ||
    /^\/api\/(events|webhooks)\/\{[^/]+\}\/stream$/.test(path)
  );
}

/** Registers the bearer scheme once; routes then name it in their `security`. */
export function registerBearerScheme(app: ApiApp): void {
  app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
    type: "http",
    scheme: "bearer",
    description: "An API key (hf_live_...) or a session token from POST /api/auth/login.",
  });
}

/**
 * The OpenAPI 3.1 document of every route registered with `app.openapi`, generated from the
 * routes' zod schemas at call time (so routes added by any module appear). Operations that do
 * not state their security get the bearer scheme unless their path is public.
 */
export function buildOpenApiDocument(app: ApiApp, services: ApiServices): OpenApiDocument {
  const document = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Hookflow",
      version: "1.0.0",
      description:
        "Self-hostable webhook relay. Errors are `{statusCode, message, error}`; validation " +
        "messages name the field. Request bodies ignore unknown fields.",
    },
    servers: [{ url: services.config.publicBaseUrl }],
  });
  const paths = document.paths ?? {};
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith("/api/")) {
      delete paths[path];
      continue;
    }
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation || operation.security !== undefined) continue;
      operation.security = isPublicOperation(path) ? [] : [{ [BEARER_SCHEME]: [] }];
    }
  }
  return document;
}
