import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createRoute, z } from "@hono/zod-openapi";
import { type ApiHarness, startApi } from "./harness.js";

const WEBHOOK_OPERATIONS: Array<[string, string, string]> = [
  ["get", "/api/webhooks", "List webhooks"],
  ["post", "/api/webhooks", "Create a webhook"],
  ["get", "/api/webhooks/{id}", "Get a webhook"],
  ["patch", "/api/webhooks/{id}", "Update a webhook"],
  ["delete", "/api/webhooks/{id}", "Delete a webhook"],
  ["post", "/api/webhooks/{id}/toggle-active", "Toggle whether a webhook delivers"],
  ["post", "/api/webhooks/{id}/rotate-token", "Rotate the ingress token"],
  ["post", "/api/webhooks/{id}/rotate-signing-secret", "Rotate the signing secret"],
];

describe("OpenAPI document and docs page", () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
    // Added after the app was built: the document must still list it.
    api.app.openapi(
      createRoute({
        method: "get",
        path: "/api/late-route",
        tags: ["Late"],
        summary: "Registered after createApiApp",
        responses: {
          200: {
            description: "ok",
            content: { "application/json": { schema: z.object({ ok: z.boolean() }) } },
          },
        },
      }),
      (c) => c.json({ ok: true }, 200),
    );
  });
  afterAll(async () => {
    await api.close();
  });

  it("serves an OpenAPI 3.1 document without a credential", async () => {
    const res = await api.call("GET", "/api/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.info.title).toBe("Hookflow");
    expect(res.body.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });

  it("lists every webhook route with its summary, bearer security and schemas", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    for (const [method, path, summary] of WEBHOOK_OPERATIONS) {
      const operation = body.paths[path]?.[method];
      expect([method, path, operation?.summary]).toEqual([method, path, summary]);
      expect(operation.tags).toEqual(["Webhooks"]);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
    const create = body.paths["/api/webhooks"].post;
    expect(create.requestBody.required).toBe(true);
    expect(create.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/CreateWebhookInput",
    });
    expect(create.responses["201"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Webhook",
    });
    const list = body.paths["/api/webhooks"].get;
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(["limit", "page"]);
    expect(list.responses["200"].headers).toHaveProperty("X-Total-Count");

    const webhook = body.components.schemas.Webhook;
    expect(webhook.properties).toHaveProperty("hasIncomingSignatureSecret");
    expect(webhook.properties).not.toHaveProperty("incomingSignatureSecret");
    expect(body.components.schemas.CreateWebhookInput.required).toEqual(["name"]);
    expect(body.components.schemas.CreateWebhookInput.properties).toHaveProperty("retryPolicy");
  });

  it("marks public routes as needing no credential and leaves /metrics out", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    expect(body.paths["/api/health"].get.security).toEqual([]);
    expect(body.paths).not.toHaveProperty("/metrics");
    expect(Object.keys(body.paths).every((path) => path.startsWith("/api/"))).toBe(true);
  });

  it("documents the ingress and stream routes served by the other roles, as public", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    const ingress = body.paths["/api/in/{token}"].post;
    expect(ingress.security).toEqual([]);
    expect(Object.keys(ingress.responses)).toEqual(
      expect.arrayContaining(["200", "202", "400", "401", "404", "413", "429", "503"]),
    );
    const stream = body.paths["/api/events/{eventId}/stream"].get;
    expect(stream.security).toEqual([]);
    expect(stream.responses["200"].content).toHaveProperty("text/event-stream");
    expect(stream.responses["401"]).toBeDefined();
  });

  it("reflects routes registered after the app was built", async () => {
    const { body } = await api.call("GET", "/api/openapi.json");
    expect(body.paths["/api/late-route"].get.summary).toBe("Registered after createApiApp");
  });

  it("serves Swagger UI at /api/docs from the package, with no script from elsewhere", async () => {
    const res = await api.app.request("/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    // Every script and stylesheet is local; no inline script.
    expect(html.match(/<script\b[^>]*>/g)).toEqual([
      '<script src="/api/docs/assets/swagger-ui-bundle.js">',
      '<script src="/api/docs/assets/initializer.js">',
    ]);
    expect(html).not.toMatch(/<script>[^<]/);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const assets = [...html.matchAll(/(?:src|href)="(\/api\/docs\/assets\/[^"]+)"/g)].map(
      (match) => match[1] ?? "",
    );
    expect(assets.sort()).toEqual([
      "/api/docs/assets/favicon-32x32.png",
      "/api/docs/assets/initializer.js",
      "/api/docs/assets/swagger-ui-bundle.js",
      "/api/docs/assets/swagger-ui.css",
    ]);
  });

  it("serves the reference's assets from swagger-ui-dist without a credential", async () => {
    const require = createRequire(import.meta.url);
    const dist = dirname(require.resolve("swagger-ui-dist/package.json"));
    for (const [name, type] of [
      ["swagger-ui-bundle.js", /^text\/javascript/],
      ["swagger-ui.css", /^text\/css/],
      ["favicon-32x32.png", /^image\/png/],
    ] as const) {
      const res = await api.app.request(`/api/docs/assets/${name}`);
      expect([name, res.status]).toEqual([name, 200]);
      expect(res.headers.get("content-type")).toMatch(type);
      const served = Buffer.from(await res.arrayBuffer());
      expect(served.equals(await readFile(join(dist, name)))).toBe(true);
    }
    const init = await api.app.request("/api/docs/assets/initializer.js");
    expect(await init.text()).toContain('fetch("/api/openapi.json"');
  });

  it("serves nothing else under /api/docs/assets", async () => {
    for (const path of [
      "/api/docs/assets/package.json",
      "/api/docs/assets/..%2Fpackage.json",
      "/api/docs/assets/constructor",
      "/api/docs/assets/index.html",
    ]) {
      const res = await api.call("GET", path);
      expect([path, res.status, res.body.statusCode]).toEqual([path, 404, 404]);
    }
  });
});
