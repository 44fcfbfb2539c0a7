import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { loadConfig } from "@hookflow/config";
import { createStreamToken, STREAM_TOKEN_TTL_MS } from "@hookflow/domain";
import { createLogger, createMetrics } from "@hookflow/observability";
import {
  createStepPublisher,
  type PipelineDone,
  type PipelineStep,
  type StepPublisher,
} from "@hookflow/queue";
import { createTestRedisPrefix, type TestRedisPrefix } from "@hookflow/testing";
import { Redis } from "ioredis";
import { createStreamApp } from "../src/app.js";
import { buildStreamServices, type StreamServices, type StreamSettings } from "../src/services.js";

const SECRET = "stream-test-secret-stream-test-secret-1";

export interface StreamHarness {
  services: StreamServices;
  app: ReturnType<typeof createStreamApp>;
  /** Base URL of the app served over real HTTP. */
  url: string;
  redis: Redis;
  publisher: StepPublisher;
  prefix: TestRedisPrefix;
  /** The stream app's clock (token checks); starts at the real time. */
  clock: { nowMs: number };
  tokenFor: (eventId: string, expiresAtMs?: number) => string;
  streamUrl: (eventId: string, token?: string, query?: string) => string;
  publishStep: (
    eventId: string,
    nodeId: string,
    status?: PipelineStep["status"],
  ) => Promise<number>;
  publishDone: (eventId: string, body?: Partial<PipelineDone["body"]>) => Promise<number>;
  close: () => Promise<void>;
}

let counter = 0;
export const newEventId = () => `evt_stream${Date.now().toString(36)}${++counter}`;

export async function startStreamHarness(
  settings: Partial<StreamSettings> = {},
  options: {
    /** More settings (STREAM_MAX_PER_TOKEN, ...). */
    env?: Record<string, string>;
    /** Share another harness's Redis prefix (a second stream replica); its owner removes it. */
    prefix?: TestRedisPrefix;
  } = {},
): Promise<StreamHarness> {
  const prefix = options.prefix ?? createTestRedisPrefix();
  const clock = { nowMs: Date.now() };
  const config = loadConfig({
    NODE_ENV: "test",
    REDIS_URL: prefix.url,
    HOOKFLOW_REDIS_PREFIX: prefix.prefix,
    HOOKFLOW_SECRET: SECRET,
    LOG_LEVEL: "silent",
    ...options.env,
  });
  const services = buildStreamServices({
    config,
    logger: createLogger({ level: "silent", role: "stream" }),
    metrics: createMetrics({ role: "stream", defaultMetrics: false }),
    now: () => new Date(clock.nowMs),
    settings,
  });
  const app = createStreamApp(services);
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
  if (!server.listening) await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const redis = new Redis(prefix.url);
  const publisher = createStepPublisher({ redis, keys: services.keys });

  const tokenFor = (eventId: string, expiresAtMs = clock.nowMs + STREAM_TOKEN_TTL_MS) =>
    createStreamToken(SECRET, eventId, expiresAtMs);
  return {
    services,
    app,
    url,
    redis,
    publisher,
    prefix,
    clock,
    tokenFor,
    streamUrl: (eventId, token = tokenFor(eventId), query = "") =>
      `${url}/api/events/${eventId}/stream?token=${encodeURIComponent(token)}${query}`,
    publishStep: (eventId, nodeId, status = "success") =>
      publisher.publish(eventId, {
        kind: "step",
        step: { eventId, nodeType: "filter", nodeId, status, at: new Date().toISOString() },
      }),
    publishDone: (eventId, body = {}) =>
      publisher.publish(eventId, {
        kind: "done",
        done: {
          eventId,
          status: 200,
          body: { deliveryStatus: "delivered", statusCode: 200, latencyMs: 12, ...body },
          response: '{"ok":true}',
        },
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.close();
      redis.disconnect();
      if (!options.prefix) await prefix.destroy();
    },
  };
}
