import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { loadConfig } from "@hookflow/config";
import { createLogger } from "@hookflow/observability";
import {
  createTestDatabase,
  createTestRedisPrefix,
  TEST_ENCRYPTION_KEY,
  type TestDatabase,
} from "@hookflow/testing";
import { createApiApp } from "../src/app.js";
import {
  type ApiServices,
  type BuildApiServicesOptions,
  buildApiServices,
} from "../src/services.js";

export interface ApiHarness {
  app: ReturnType<typeof createApiApp>;
  services: ApiServices;
  database: TestDatabase;
  /** JSON request helper: `call("POST", "/api/webhooks", {token, body})`. */
  call: (
    method: string,
    path: string,
    options?: {
      token?: string;
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  /** Serves the app on a loopback port, for tests that need real sockets and client addresses. */
  listen: () => Promise<{ url: string; port: number; close: () => Promise<void> }>;
  close: () => Promise<void>;
}

/** The real api against a database and Redis prefix of its own. */
export async function startApi(
  env: Record<string, string> = {},
  options: Pick<BuildApiServicesOptions, "loginThrottleLimits" | "replayAllBatchSize"> = {},
): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const redis = createTestRedisPrefix();
  const config = loadConfig({
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    REDIS_URL: redis.url,
    HOOKFLOW_REDIS_PREFIX: redis.prefix,
    HOOKFLOW_SECRET: "test-secret-test-secret-test-secret-123",
    HOOKFLOW_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    LOG_LEVEL: "silent",
    ...env,
  });
  const services = buildApiServices({
    config,
    logger: createLogger({ level: "silent", role: "api" }),
    ...options,
  });
  const app = createApiApp(services);
  const call: ApiHarness["call"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    } else if (body !== undefined && !headers["content-type"]) {
      headers["content-type"] = "application/json";
    }
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const listen: ApiHarness["listen"] = async () => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  };
  return {
    app,
    services,
    database,
    call,
    listen,
    close: async () => {
      await services.close();
      await database.destroy();
      await redis.destroy();
    },
  };
}
