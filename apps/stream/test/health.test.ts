import { createServer, type Socket } from "node:net";
import { loadConfig } from "@hookflow/config";
import { createLogger } from "@hookflow/observability";
import { createTestRedisPrefix, scrapeMetrics, type TestRedisPrefix } from "@hookflow/testing";
import { createStreamApp } from "../src/app.js";
import { buildStreamServices, type StreamServices } from "../src/services.js";

function configFor(redisUrl: string, prefix: string) {
  return loadConfig({
    NODE_ENV: "test",
    REDIS_URL: redisUrl,
    HOOKFLOW_REDIS_PREFIX: prefix,
    HOOKFLOW_SECRET: "test-secret-test-secret-test-secret-123",
    LOG_LEVEL: "silent",
  });
}

/** A TCP server that accepts connections and never answers: a hung Redis. */
async function silentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("stream app basics", () => {
  let redis: TestRedisPrefix;
  let services: StreamServices;
  beforeAll(() => {
    redis = createTestRedisPrefix();
    services = buildStreamServices({
      config: configFor(redis.url, redis.prefix),
      logger: createLogger({ level: "silent", role: "stream" }),
    });
  });
  afterAll(async () => {
    await services.close();
    await redis.destroy();
  });

  it("answers health with its Redis check", async () => {
    const res = await createStreamApp(services).request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", role: "stream", checks: { redis: true } });
  });

  it("serves Prometheus metrics on the metrics listener, not on the public app", async () => {
    const app = createStreamApp(services);
    await app.request("/api/health");
    expect((await app.request("/metrics")).status).toBe(404);
    const { status, text } = await scrapeMetrics(services.metrics);
    expect(status).toBe(200);
    expect(text).toMatch(/hookflow_http_requests_total\{[^}]*role="stream"/);
  });

  it("answers an unknown route with 404 in the documented error shape", async () => {
    const res = await createStreamApp(services).request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      message: "Route GET /api/nope not found",
      error: "Not Found",
    });
  });

  it("reports itself degraded with 503 when Redis does not answer", async () => {
    const hung = await silentServer();
    const down = buildStreamServices({
      config: configFor(hung.url, "unused"),
      logger: createLogger({ level: "silent", role: "stream" }),
    });
    try {
      const res = await createStreamApp(down).request("/api/health");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: "degraded",
        role: "stream",
        checks: { redis: false },
      });
    } finally {
      await down.close();
      await hung.close();
    }
  });
});
