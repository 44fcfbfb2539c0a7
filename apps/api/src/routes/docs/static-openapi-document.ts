import { loadConfig } from "@hookflow/config";
import { createLogger, createMetrics } from "@hookflow/observability";
import { createApiApp } from "../../app.js";
import { createApiMetrics } from "../../http/api-metrics.js";
import type { ApiServices } from "../../services.js";
import type { OpenApiDocument } from "./openapi-document.js";

/**
 * A stand-in for a service the document never needs: any use throws, so a route that starts
 * touching the database or Redis while being registered fails the generator loudly instead of
 * connecting somewhere.
 */
function inert<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === "then") return undefined;
      throw new Error(`The OpenAPI generator used ${name}.${String(property)}; it has no ${name}`);
    },
  });
}

/**
 * The api's OpenAPI document built without a server, database or Redis: the app is composed
 * with inert services (routes only read their definitions at registration) and a configuration
 * of defaults, so the result depends on the code alone (its server is relative: `/`).
 * `packages/sdk/openapi.json` is this document; `pnpm openapi` rewrites it and a test fails when it is stale.
 */
export async function buildStaticOpenApiDocument(): Promise<OpenApiDocument> {
  const config = loadConfig({
    LOG_LEVEL: "silent",
    HOOKFLOW_SECRET: "openapi-generator-secret-not-used-anywhere",
  });
  const metrics = createMetrics({ role: "api", defaultMetrics: false });
  const services: ApiServices = {
    config,
    db: { db: inert("db"), sql: inert("sql"), close: async () => {} },
    redis: inert("redis"),
    keys: inert("keys"),
    queues: inert("queues"),
    schedules: inert("schedules"),
    logger: createLogger({ level: "silent", role: "api" }),
    metrics,
    apiMetrics: createApiMetrics(metrics),
    keyRing: inert("keyRing"),
    now: () => new Date(0),
    replayAllBatchSize: 1,
    clientAddress: inert("clientAddress"),
    passwords: inert("passwords"),
    loginThrottle: inert("loginThrottle"),
    fixedWindow: inert("fixedWindow"),
    transformPort: () => inert("transformPort"),
    patternPort: () => inert("patternPort"),
    console: { state: "off" },
    close: async () => {},
  };
  const app = createApiApp(services);
  const response = await app.request("/api/openapi.json");
  if (response.status !== 200) throw new Error(`openapi.json answered ${response.status}`);
  const document = (await response.json()) as OpenApiDocument;
  // Each instance names its own PUBLIC_BASE_URL; the file names none (relative to its host).
  document.servers = [{ url: "/", description: "The Hookflow instance serving this document" }];
  return document;
}

/** The document as the committed file holds it: two-space JSON and a final newline. */
export function formatOpenApiFile(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
