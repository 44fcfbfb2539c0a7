import { createMetrics } from "./metrics.js";
import { type MetricsServer, startMetricsServer } from "./metrics-server.js";

const TOKEN = "metrics-token-0123456789";

describe("startMetricsServer", () => {
  const metrics = createMetrics({ role: "test", defaultMetrics: false });
  metrics.httpRequests.inc({ role: "test", method: "GET", route: "/x", status: "200" });
  const servers: MetricsServer[] = [];
  const start = async (token: string | null) => {
    const server = await startMetricsServer({ metrics, host: "127.0.0.1", port: 0, token });
    servers.push(server);
    return `http://127.0.0.1:${server.port}`;
  };
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it("answers GET /metrics with the registry's Prometheus text", async () => {
    const res = await fetch(`${await start(null)}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/hookflow_http_requests_total\{[^}]*role="test"[^}]*\} 1/);
  });

  it("merges other processes' registries into one exposition, summing their counters", async () => {
    const child = createMetrics({ role: "test", defaultMetrics: false });
    child.httpRequests.inc({ role: "test", method: "GET", route: "/x", status: "200" }, 2);
    child.httpRequests.inc({ role: "worker", method: "GET", route: "/api/health", status: "200" });
    const snapshot = await child.registry.getMetricsAsJSON();
    const server = await startMetricsServer({
      metrics,
      host: "127.0.0.1",
      port: 0,
      token: null,
      others: async () => [snapshot],
    });
    servers.push(server);
    const text = await (await fetch(`http://127.0.0.1:${server.port}/metrics`)).text();
    expect(text).toMatch(/hookflow_http_requests_total\{[^}]*role="test"[^}]*\} 3/);
    expect(text).toMatch(/hookflow_http_requests_total\{[^}]*role="worker"[^}]*\} 1/);
    expect(text.match(/# HELP hookflow_http_requests_total/g)).toHaveLength(1);
  });

  it.each(["/", "/api/health", "/metrics/x"])(
    "answers %s with 404 in the error shape",
    async (path) => {
      const res = await fetch(`${await start(null)}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        statusCode: 404,
        message: `Route GET ${path} not found`,
        error: "Not Found",
      });
    },
  );

  it.each([
    ["no", undefined],
    ["a wrong", `Bearer ${TOKEN}x`],
    ["a non-bearer", `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`],
  ])("refuses a scrape with %s token when one is set", async (_label, authorization) => {
    const res = await fetch(`${await start(TOKEN)}/metrics`, {
      headers: authorization ? { authorization } : {},
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await res.json()).toEqual({
      statusCode: 401,
      message: "A valid metrics token is required",
      error: "Unauthorized",
    });
  });

  it("serves a scrape that carries the token", async () => {
    const res = await fetch(`${await start(TOKEN)}/metrics`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/hookflow_http_requests_total/);
  });

  it("fails to start when its port is taken", async () => {
    const taken = new URL(await start(null)).port;
    await expect(
      startMetricsServer({ metrics, host: "127.0.0.1", port: Number(taken), token: null }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});
