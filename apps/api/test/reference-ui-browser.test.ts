import { execFile } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { serve } from "@hono/node-server";
import { type ApiHarness, startApi } from "./harness.js";

const run = promisify(execFile);
/** Debian's chromium (CI installs it for the console's browser tests). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const withBrowser = existsSync(CHROMIUM) ? it : it.skip;

describe("the API reference in a real browser", () => {
  let api: ApiHarness;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    api = await startApi();
    server = serve({ fetch: api.app.fetch, port: 0, hostname: "127.0.0.1" }) as Server;
    if (!server.listening) await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.close();
    await api?.close();
  });

  withBrowser("renders every operation under its CSP, served from this instance only", async () => {
    const { stdout, stderr } = await run(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        "--dump-dom",
        `${base}/api/docs`,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );
    // Swagger UI ran (the bundle and the initializer loaded under the CSP) and rendered the
    // document with its operation ids, pointing "Try it out" at this instance.
    for (const id of ["listWebhooks", "createWebhookStreamToken", "replayEvent", "sendEvent"]) {
      expect(stdout).toContain(id);
    }
    expect(stdout).toContain(`${base} - This Hookflow instance`);
    expect(stderr).not.toMatch(/Refused to|Content Security Policy/);
  });
});
