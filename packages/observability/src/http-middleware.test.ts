import { Writable } from "node:stream";
import { Hono } from "hono";
import { pino } from "pino";
import { observeHttp } from "./http-middleware.js";
import { createMetrics } from "./metrics.js";

function setup(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const logger = pino({ level }, sink);
  const metrics = createMetrics({ role: "test", defaultMetrics: false });
  const app = new Hono();
  app.use("*", observeHttp({ role: "ingress", logger, metrics }));
  app.post("/api/in/:token", (c) => c.json({ ok: true }, 202));
  app.get("/boom", (c) => c.json({ error: "x" }, 503));
  return { app, lines, metrics };
}

describe("observeHttp", () => {
  it("counts requests by route pattern and status, and times them per route", async () => {
    const { app, metrics } = setup("warn");
    for (const token of ["a", "b", "c"]) await app.request(`/api/in/${token}`, { method: "POST" });
    await app.request("/nowhere");
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'hookflow_http_requests_total{role="ingress",method="POST",route="/api/in/:token",status="202",app="hookflow"} 3',
    );
    expect(text).toContain(
      'hookflow_http_requests_total{role="ingress",method="GET",route="unmatched",status="404",app="hookflow"} 1',
    );
    expect(text).toContain(
      'hookflow_http_request_duration_seconds_count{app="hookflow",role="ingress",method="POST",route="/api/in/:token"} 3',
    );
  });

  it("echoes the caller's request id, or makes one up", async () => {
    const { app } = setup("warn");
    const given = await app.request("/api/in/a", {
      method: "POST",
      headers: { "x-request-id": "req-1" },
    });
    const made = await app.request("/api/in/a", { method: "POST" });
    expect(given.headers.get("x-request-id")).toBe("req-1");
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs server errors at error level and other requests only at debug, tokens hidden", async () => {
    const quiet = setup("warn");
    await quiet.app.request("/api/in/secret-token", { method: "POST" });
    await quiet.app.request("/boom");
    expect(quiet.lines.map((line) => [line.level, line.route, line.status])).toEqual([
      [50, "/boom", 503],
    ]);

    const chatty = setup("debug");
    await chatty.app.request("/api/in/secret-token", { method: "POST" });
    expect(chatty.lines).toHaveLength(1);
    expect(chatty.lines[0]).toMatchObject({ level: 20, path: "/api/in/:token", status: 202 });
    expect(JSON.stringify(chatty.lines)).not.toContain("secret-token");
  });
});
