import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { HTTP_METHODS } from "../src/routes/docs/openapi-document.js";
import {
  buildStaticOpenApiDocument,
  formatOpenApiFile,
} from "../src/routes/docs/static-openapi-document.js";
import { type ApiHarness, startApi } from "./harness.js";

const FILE = fileURLToPath(new URL("../../../packages/sdk/openapi.json", import.meta.url));

type Document = Awaited<ReturnType<typeof buildStaticOpenApiDocument>>;

function operationsOf(document: Document) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ key: `${method.toUpperCase()} ${path}`, operation }] : [];
    }),
  );
}

describe("the committed OpenAPI document (packages/sdk/openapi.json)", () => {
  it("is what the code generates (run `pnpm openapi` to regenerate it and the SDK's types)", async () => {
    const committed = await readFile(FILE, "utf8");
    const generated = formatOpenApiFile(await buildStaticOpenApiDocument());
    if (committed !== generated) {
      throw new Error(
        "packages/sdk/openapi.json is stale: run `pnpm openapi` at the repository root and " +
          "commit packages/sdk/openapi.json and packages/sdk/src/generated/schema.ts",
      );
    }
  });

  it("gives every operation a unique verbNoun operationId", async () => {
    const operations = operationsOf(await buildStaticOpenApiDocument());
    expect(operations.length).toBeGreaterThan(80);
    const missing = operations.filter(({ operation }) => !operation.operationId);
    expect(missing.map(({ key }) => key)).toEqual([]);
    const ids = operations.map(({ operation }) => operation.operationId ?? "");
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z]+[A-Z][A-Za-z]*$/.test(id))).toEqual([]);
  });

  it("keeps the operationIds SDKs are built on", async () => {
    const byKey = new Map(
      operationsOf(await buildStaticOpenApiDocument()).map(({ key, operation }) => [
        key,
        operation.operationId,
      ]),
    );
    expect(
      Object.fromEntries(
        [
          "GET /api/webhooks",
          "POST /api/webhooks",
          "GET /api/events/{id}",
          "POST /api/events/{eventId}/replay",
          "POST /api/events/replay-all",
          "GET /api/routers",
          "POST /api/filter-nodes",
          "PATCH /api/rate-limiter-nodes/{id}",
          "DELETE /api/schema-validators/{id}",
          "POST /api/approval-nodes/{id}/approve",
          "POST /api/in/{token}",
        ].map((key) => [key, byKey.get(key)]),
      ),
    ).toEqual({
      "GET /api/webhooks": "listWebhooks",
      "POST /api/webhooks": "createWebhook",
      "GET /api/events/{id}": "getEvent",
      "POST /api/events/{eventId}/replay": "replayEvent",
      "POST /api/events/replay-all": "replayAllEvents",
      "GET /api/routers": "listRouters",
      "POST /api/filter-nodes": "createFilterNode",
      "PATCH /api/rate-limiter-nodes/{id}": "updateRateLimiterNode",
      "DELETE /api/schema-validators/{id}": "deleteSchemaValidator",
      "POST /api/approval-nodes/{id}/approve": "approveEvent",
      "POST /api/in/{token}": "sendEvent",
    });
  });

  describe("against a running api", () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await startApi();
    });
    afterAll(async () => {
      await api.close();
    });

    it("equals the document the api serves, but for the instance's own server", async () => {
      const { status, body } = await api.call("GET", "/api/openapi.json");
      expect(status).toBe(200);
      expect(body.servers).toEqual([{ url: api.services.config.publicBaseUrl }]);
      const file = JSON.parse(await readFile(FILE, "utf8"));
      expect({ ...body, servers: file.servers }).toEqual(file);
    });
  });
});
