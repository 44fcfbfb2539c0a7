import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { createApiApp } from "../src/app.js";
import { type ApiHarness, startApi } from "./harness.js";

/** A built console in miniature: index.html and a content-hashed script, as Vite writes them. */
function fakeConsole(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookflow-console-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><script src="/assets/app-1a2b3c.js"></script>',
  );
  writeFileSync(
    join(dir, "assets", "app-1a2b3c.js"),
    `console.log(${JSON.stringify("x".repeat(4000))});`,
  );
  writeFileSync(join(dir, "favicon.svg"), "<svg/>");
  return dir;
}

describe("the web console at /", () => {
  let api: ApiHarness;
  let dir: string;

  beforeAll(async () => {
    dir = fakeConsole();
    api = await startApi({ DASHBOARD_DIR: dir });
  });

  afterAll(async () => {
    await api?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves index.html at / with a self-only CSP and no caching", async () => {
    const res = await api.app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("content-security-policy")).toMatch(
      /^default-src 'self'; script-src 'self'/,
    );
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toContain("/assets/app-1a2b3c.js");
  });

  it.each(["/webhooks", "/webhooks/wh_123/canvas", "/events"])(
    "answers a browser navigating to the client route %s with index.html",
    async (path) => {
      const res = await api.app.request(path, { headers: { accept: "text/html,*/*;q=0.8" } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("<!doctype html>");
    },
  );

  it("keeps the JSON 404 of an unknown route for clients that do not ask for HTML", async () => {
    const res = await api.call("GET", "/webhooks", { headers: { accept: "application/json" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      message: "Route GET /webhooks not found",
      error: "Not Found",
    });
  });

  it("never shadows a route, even one registered after the app was built", async () => {
    const app = createApiApp(api.services);
    app.get("/later", (c) => c.json({ later: true }));
    const res = await app.request("/later", { headers: { accept: "text/html" } });
    expect(await res.json()).toEqual({ later: true });
    const post = await app.request("/", { method: "POST" });
    expect(post.status).toBe(404);
  });

  it("caches hashed assets for a year and sends them gzipped when asked", async () => {
    const res = await api.app.request("/assets/app-1a2b3c.js", {
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
    expect(body).toMatch(/^console\.log\("x+"\);$/);
  });

  it("answers 304 to a request that already holds the file", async () => {
    const first = await api.app.request("/favicon.svg");
    const etag = first.headers.get("etag") ?? "";
    const again = await api.app.request("/favicon.svg", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it.each([
    ["/assets/missing-0000.js", "Route GET /assets/missing-0000.js not found"],
    ["/api/no-such-route", "Route GET /api/no-such-route not found"],
    ["/metrics", "Route GET /metrics not found"],
  ])("leaves %s to the api's JSON answers", async (path, message) => {
    const res = await api.app.request(path);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await res.json()) as { message: string }).message).toBe(message);
  });

  it("reads files into memory at start, so no path reaches outside the folder", async () => {
    for (const path of ["/../package.json", "/assets/../../etc/passwd", "/%2e%2e/index.html"]) {
      const res = await api.app.request(path);
      const text = await res.text();
      expect(text).not.toContain('"name"');
      expect(text).not.toContain("root:");
    }
  });
});

describe("the web console without a build", () => {
  it("answers / with 503 naming the missing build, and still serves the api", async () => {
    const api = await startApi({ DASHBOARD_DIR: join(tmpdir(), "hookflow-no-console-here") });
    try {
      const root = await api.call("GET", "/");
      expect(root.status).toBe(503);
      const page = await api.call("GET", "/events", { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(root.body).toEqual({
        statusCode: 503,
        message:
          "The web console is not built: run `pnpm build` (or set DASHBOARD_DIR to a built console)",
        error: "Service Unavailable",
      });
      expect((await api.call("GET", "/api/health")).status).toBe(200);
    } finally {
      await api.close();
    }
  });

  it("serves no console with DASHBOARD_DIR=off", async () => {
    const api = await startApi({ DASHBOARD_DIR: "off" });
    try {
      const root = await api.call("GET", "/");
      expect(root.status).toBe(404);
      expect(root.body.message).toBe("Route GET / not found");
    } finally {
      await api.close();
    }
  });
});
