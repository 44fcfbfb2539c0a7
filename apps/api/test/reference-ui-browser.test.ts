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

  /** The page as Chromium renders it (its scripts run under the page's CSP), and the log. */
  const render = (url: string) =>
    run(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=10000",
        "--dump-dom",
        url,
      ],
      { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
    );

  withBrowser(
    "lists every tag of the document under its CSP, served from this instance only",
    async () => {
      const { stdout, stderr } = await render(`${base}/api/docs`);
      // Swagger UI ran (the bundle and the initializer loaded under the CSP) and rendered the
      // document, its tags collapsed (about 150 operations), "Try it out" at this instance.
      const doc = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { tags?: string[] }>>;
      };
      const tags = new Set(
        Object.values(doc.paths).flatMap((item) =>
          Object.values(item).flatMap((op) => op.tags ?? []),
        ),
      );
      expect(tags.size).toBeGreaterThan(20);
      for (const tag of tags) expect(stdout).toContain(`data-tag="${tag}"`);
      expect(stdout).toContain(`${base} - This Hookflow instance`);
      expect(stderr).not.toMatch(/Refused to|Content Security Policy/);
    },
  );

  withBrowser("opens a tag's operations from a deep link, with their operation ids", async () => {
    const { stdout, stderr } = await render(`${base}/api/docs#/Webhooks/listWebhooks`);
    for (const id of ["listWebhooks", "createWebhook", "createWebhookStreamToken"]) {
      expect(stdout).toContain(id);
    }
    expect(stderr).not.toMatch(/Refused to|Content Security Policy/);
  });
});
