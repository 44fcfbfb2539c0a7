import fc from "fast-check";
import { createUserWithSession } from "./fixtures.js";
import { type ApiHarness, startApi } from "./harness.js";

/**
 * Random and hostile bodies at the routes that take user input (webhooks, payload filters, node
 * families): every answer is a success or a 4xx in the error shape, never a 5xx.
 */
const field = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("__proto__", "constructor.prototype", "items.0.sku", "", "a..b", "."),
);
const operator = fc.oneof(
  fc.constantFrom("eq", "neq", "contains", "gt", "lt", "exists", "not_exists", "in", "not_in"),
  fc.string({ maxLength: 10 }),
);
const filter = fc.record(
  { field, operator, value: fc.oneof(fc.jsonValue(), fc.string()) },
  { requiredKeys: [] },
);
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom("https://example.com/h", "http://127.0.0.1:9/x", "whsec_x", "not a url", ""),
);
/** Bodies that mostly pass validation, so the storing path sees random filters and names too. */
const plausibleWebhook = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 60 }),
    targetUrl: fc.webUrl(),
    priority: fc.integer({ min: 1, max: 5 }),
    payloadFilters: fc.array(
      fc.record({
        field: fc.string({ minLength: 1, maxLength: 30 }),
        operator: fc.constantFrom("eq", "neq", "contains", "gt", "lt", "in", "not_in"),
        value: fc.oneof(fc.string(), fc.integer(), fc.boolean()),
      }),
      { maxLength: 10 },
    ),
    description: fc.string({ maxLength: 200 }),
  },
  { requiredKeys: ["name"] },
);
const webhookBody = fc.oneof(
  plausibleWebhook,
  fc.jsonValue(),
  fc.record(
    {
      name: fc.oneof(fc.string({ maxLength: 300 }), anyValue),
      targetUrl: anyValue,
      maxRetries: anyValue,
      retryDelaySeconds: anyValue,
      priority: anyValue,
      payloadFilters: fc.oneof(fc.array(filter, { maxLength: 60 }), anyValue),
      incomingSignatureType: fc.oneof(
        fc.constantFrom("none", "github", "stripe", "custom"),
        anyValue,
      ),
      incomingSignatureSecret: anyValue,
      circuitBreaker: fc.oneof(fc.dictionary(fc.string(), anyValue, { maxKeys: 3 }), anyValue),
      chaosConfig: fc.oneof(fc.dictionary(fc.string(), anyValue, { maxKeys: 3 }), anyValue),
      deduplication: fc.oneof(fc.dictionary(fc.string(), anyValue, { maxKeys: 3 }), anyValue),
      chainWebhookIds: fc.oneof(fc.array(fc.string(), { maxLength: 25 }), anyValue),
      degradedAfter: anyValue,
      downAfter: anyValue,
    },
    { requiredKeys: [] },
  ),
);
const filterNodeBody = fc.record(
  {
    name: fc.oneof(fc.string({ maxLength: 50 }), anyValue),
    filterMode: fc.oneof(fc.constantFrom("and", "or"), anyValue),
    filters: fc.oneof(fc.array(filter, { maxLength: 20 }), anyValue),
    inputNodes: fc.oneof(
      fc.array(fc.record({ nodeType: fc.string(), nodeId: fc.string() }), { maxLength: 3 }),
      anyValue,
    ),
  },
  { requiredKeys: [] },
);

function expectSuccessOrClientError(res: { status: number; body: any }): void {
  if (res.status < 300) return;
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body).toEqual({
    statusCode: res.status,
    message: expect.any(String),
    error: expect.any(String),
  });
}

describe("api inputs, properties", () => {
  let api: ApiHarness;
  let token: string;
  let webhookId: string;

  beforeAll(async () => {
    // Random bodies create many records quickly: no rate limit here (it has its own suite).
    api = await startApi({ API_RATE_LIMIT_PER_MINUTE: "0" });
    ({ token } = await createUserWithSession(api.database.db));
    const created = await api.call("POST", "/api/webhooks", {
      token,
      body: { name: "property target", targetUrl: "https://example.com/hook" },
    });
    webhookId = created.body.id;
  });
  afterAll(async () => {
    await api.close();
  });

  it("creates a webhook or answers a 4xx for any body", async () => {
    let created = 0;
    await fc.assert(
      fc.asyncProperty(webhookBody, async (body) => {
        const res = await api.call("POST", "/api/webhooks", { token, body });
        expectSuccessOrClientError(res);
        if (res.status === 201) created += 1;
      }),
      { numRuns: 150 },
    );
    // The generators reach the storing path, not only validation.
    expect(created).toBeGreaterThan(0);
  });

  it("updates a webhook or answers a 4xx for any body", async () => {
    await fc.assert(
      fc.asyncProperty(webhookBody, async (body) => {
        expectSuccessOrClientError(
          await api.call("PATCH", `/api/webhooks/${webhookId}`, { token, body }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("creates a filter node or answers a 4xx for any body, its filters and paths included", async () => {
    await fc.assert(
      fc.asyncProperty(filterNodeBody, fc.boolean(), async (body, attach) => {
        const sent = attach
          ? { ...body, inputNodes: [{ nodeType: "webhook", nodeId: webhookId }] }
          : body;
        expectSuccessOrClientError(
          await api.call("POST", "/api/filter-nodes", { token, body: sent }),
        );
      }),
      { numRuns: 150 },
    );
  });

  it("answers text that is not JSON with a 400 in the error shape", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        fc.pre(
          !(() => {
            try {
              JSON.parse(text);
              return true;
            } catch {
              return false;
            }
          })(),
        );
        const res = await api.call("POST", "/api/webhooks", { token, rawBody: text });
        expect(res.status).toBe(400);
        expectSuccessOrClientError(res);
      }),
      { numRuns: 60 },
    );
  });
});
