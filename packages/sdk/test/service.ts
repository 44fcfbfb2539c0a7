import { fileURLToPath } from "node:url";
import {
  type ChildApp,
  createTestDatabase,
  createTestRedisPrefix,
  startChildApp,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";

/** The built CLI (the root `pnpm test` builds first); started by path, never imported. */
const CLI = fileURLToPath(new URL("../../../apps/cli/dist/main.js", import.meta.url));

export interface Service {
  app: ChildApp;
  /** `http://127.0.0.1:<port>`: api, ingress and stream on one port. */
  baseUrl: string;
  close: () => Promise<void>;
}

/** The real `hookflow start` (every role) on a database and Redis prefix of its own. */
export async function startService(env: Record<string, string> = {}): Promise<Service> {
  const database: TestDatabase = await createTestDatabase();
  const redis: TestRedisPrefix = createTestRedisPrefix();
  const app = await startChildApp({
    entry: CLI,
    args: ["start"],
    name: "hookflow start",
    healthPath: "/api/health",
    env: {
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      HOOKFLOW_REDIS_PREFIX: redis.prefix,
      HOOKFLOW_DELAY_SCALE: "0.01",
      ...env,
    },
  });
  return {
    app,
    baseUrl: app.url,
    close: async () => {
      await app.terminate();
      await redis.destroy();
      await database.destroy();
    },
  };
}

let counter = 0;

/** Signs up a fresh user and returns its session token. */
export async function signUp(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: `sdk-${Date.now()}-${++counter}@example.com`,
      password: "correct horse battery",
      name: "SDK test",
    }),
  });
  if (response.status !== 201) throw new Error(`signup answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}
