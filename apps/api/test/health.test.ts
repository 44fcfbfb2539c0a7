import { scrapeMetrics } from "@hookflow/testing";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

describe("api basics", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it("answers health with its dependency checks", async () => {
    const res = await api.call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      role: "api",
      checks: { postgres: true, redis: true },
    });
  });

  it("answers an unknown route with 404 in the documented error shape", async () => {
    // 404 whatever the credential (see cors-and-routes.test.ts): no 401 for a missing route.
    const res = await api.call("GET", "/api/nope", { token: "x" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      statusCode: 404,
      message: "Route GET /api/nope not found",
      error: "Not Found",
    });
    const open = await api.call("GET", "/nope");
    expect(open.status).toBe(404);
    expect(open.body).toEqual({
      statusCode: 404,
      message: "Route GET /nope not found",
      error: "Not Found",
    });
  });

  it("rejects a request without a credential with 401", async () => {
    const res = await api.call("GET", "/api/webhooks");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      statusCode: 401,
      message: "Missing bearer token",
      error: "Unauthorized",
    });
  });

  it("keeps Prometheus metrics off the public app, with or without credentials", async () => {
    const { token } = await createUserWithSession(api.database.db);
    for (const headers of [{}, { authorization: `Bearer ${token}` }]) {
      const res = await api.app.request("/metrics", { headers });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        statusCode: 404,
        message: "Route GET /metrics not found",
        error: "Not Found",
      });
    }
  });

  it("serves its metrics on the metrics listener", async () => {
    await api.call("GET", "/api/health");
    const { status, text } = await scrapeMetrics(api.services.metrics);
    expect(status).toBe(200);
    expect(text).toMatch(/hookflow_http_requests_total\{[^}]*role="api"/);
  });
});
