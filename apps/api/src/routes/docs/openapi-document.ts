import type { ApiApp } from "../../http/api-app.js";
import { PUBLIC_BODY_LIMIT_BYTES } from "../../http/body-limit.js";
import { isPublicPath } from "../../http/public-paths.js";
import type { ApiServices } from "../../services.js";

export type OpenApiDocument = ReturnType<ApiApp["getOpenAPI31Document"]>;

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options"] as const;

const BEARER_SCHEME = "bearerAuth";

/** Public routes (docs/decisions.md, "The api's edge") besides the fixed list of `isPublicPath`. */
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
      if (!operation) continue;
      if (operation.security === undefined) {
        operation.security = isPublicOperation(path) ? [] : [{ [BEARER_SCHEME]: [] }];
      }
      if (!path.startsWith("/api/in/")) documentEdgeLimits(operation, services);
    }
  }
  return document;
}

type Operation = NonNullable<NonNullable<OpenApiDocument["paths"]>[string]["get"]>;

/** The error body of route-kit's `ErrorBody`, as JSON Schema. */
const ERROR_CONTENT = {
  "application/json": {
    schema: {
      type: "object" as const,
      properties: {
        statusCode: { type: "integer" as const },
        message: { type: "string" as const },
        error: { type: "string" as const },
      },
      required: ["statusCode", "message", "error"],
    },
  },
};
const RATE_HEADERS = {
  "Retry-After": { description: "Seconds until the window resets", schema: { type: "integer" } },
  "RateLimit-Limit": { description: "Requests allowed per window", schema: { type: "integer" } },
  "RateLimit-Remaining": {
    description: "Requests left in this window",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window resets",
    schema: { type: "integer" },
  },
};

/**
 * The answers every api route may give at the edge, added to each operation that does not
 * describe them itself: 413 for a body over the limit, and on routes with a credential the
 * per-credential rate limit (429 with its headers).
 */
function documentEdgeLimits(operation: Operation, services: ApiServices): void {
  const { maxPayloadBytes, apiRateLimitPerMinute } = services.config;
  const responses = operation.responses ?? {};
  const isPublic = operation.security?.length === 0;
  if (operation.requestBody && !responses["413"]) {
    const limit = isPublic ? PUBLIC_BODY_LIMIT_BYTES : maxPayloadBytes;
    const setting = isPublic ? "routes without a credential" : "MAX_PAYLOAD_BYTES";
    responses["413"] = {
      description: `Request body larger than ${limit} bytes (${setting})`,
      content: ERROR_CONTENT,
    };
  }
  if (!isPublic && apiRateLimitPerMinute > 0 && !responses["429"]) {
    responses["429"] = {
      description:
        `More than ${apiRateLimitPerMinute} requests in a minute with this API key or session ` +
        "(API_RATE_LIMIT_PER_MINUTE); every answer carries the RateLimit-* headers",
      headers: RATE_HEADERS,
      content: ERROR_CONTENT,
    };
  }
  operation.responses = responses;
}
