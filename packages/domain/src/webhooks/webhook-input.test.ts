import { describeZodError } from "../zod-issues.js";
import { CreateWebhookInput, isHttpUrl, UpdateWebhookInput } from "./webhook-input.js";

function createError(body: Record<string, unknown>): string {
  const result = CreateWebhookInput.safeParse({ name: "hook", ...body });
  if (result.success) throw new Error(`expected ${JSON.stringify(body)} to be rejected`);
  return describeZodError(result.error);
}

describe("CreateWebhookInput", () => {
  it("accepts field set A and field set B names in one body", () => {
    const parsed = CreateWebhookInput.parse({
      name: "orders",
      targetUrl: "https://example.com/hook",
      maxRetries: 5,
      rateLimitPerMinute: 60,
      rateLimitPerSecond: 2,
      retryPolicy: { backoffMultiplier: 3 },
      circuitBreaker: { enabled: true },
      chaosConfig: { failureRate: 12.5 },
      deduplication: { enabled: true, windowSeconds: 60 },
      payloadFilters: [{ field: "type", operator: "eq", value: "order.created" }],
    });
    expect(parsed.maxRetries).toBe(5);
    expect(parsed.retryPolicy).toEqual({ backoffMultiplier: 3 });
    expect(parsed.circuitBreaker).toEqual({ enabled: true });
    expect(parsed.payloadFilters).toEqual([
      { field: "type", operator: "eq", value: "order.created" },
    ]);
  });

  it("ignores fields it does not know, such as read-only response fields", () => {
    const parsed = CreateWebhookInput.parse({ name: "x", _id: "wh_1", ingressUrl: "u", bogus: 1 });
    expect(parsed).toEqual({ name: "x" });
  });

  it("requires a name on create", () => {
    expect(createError({ name: undefined })).toMatch(/^name: /);
    expect(createError({ name: "" })).toMatch(/^name: /);
    expect(createError({ name: "n".repeat(201) })).toMatch(/^name: /);
  });

  it.each([
    ["targetUrl", "not a url", /^targetUrl: Invalid URL$/],
    ["targetUrl", "ftp://example.com/x", /^targetUrl: Invalid URL$/],
    ["fallbackUrl", "", /^fallbackUrl: Invalid URL$/],
    ["fallbackUrl", "example.com", /^fallbackUrl: Invalid URL$/],
    ["maxRetries", 21, /^maxRetries: /],
    ["maxRetries", -1, /^maxRetries: /],
    ["maxRetries", 1.5, /^maxRetries: /],
    ["retryDelaySeconds", 9, /^retryDelaySeconds: /],
    ["priority", 0, /^priority: /],
    ["priority", 6, /^priority: /],
    ["degradedAfter", 0, /^degradedAfter: /],
    ["rateLimitPerMinute", -1, /^rateLimitPerMinute: /],
    ["rateLimitPerSecond", -1, /^rateLimitPerSecond: /],
    ["incomingSignatureType", "hmac", /^incomingSignatureType: /],
    ["responseMode", "async", /^responseMode: /],
    ["isActive", "yes", /^isActive: /],
    ["signingSecret", "secret_abc", /^signingSecret: /],
    ["chainWebhookIds", ["wh_a", "wh_a"], /^chainWebhookIds: Duplicate webhook id$/],
    ["retryPolicy", { maxRetries: 99 }, /^retryPolicy\.maxRetries: /],
    ["retryPolicy", { backoffMultiplier: 0.5 }, /^retryPolicy\.backoffMultiplier: /],
    ["chaosConfig", { failureRate: 101 }, /^chaosConfig\.failureRate: /],
    ["chaosConfig", { latencyMs: 60_001 }, /^chaosConfig\.latencyMs: /],
    ["circuitBreaker", { threshold: 0 }, /^circuitBreaker\.threshold: /],
    ["deduplication", { windowSeconds: 0 }, /^deduplication\.windowSeconds: /],
  ])("rejects %s = %j naming the field", (field, value, message) => {
    expect(createError({ [field]: value })).toMatch(message);
  });

  it("accepts an empty targetUrl for a notification-only webhook", () => {
    expect(CreateWebhookInput.parse({ name: "n", targetUrl: "" }).targetUrl).toBe("");
  });

  it("requires a filter value except for exists and not_exists", () => {
    expect(createError({ payloadFilters: [{ field: "a", operator: "eq" }] })).toBe(
      "payloadFilters.0.value: Required for operator eq",
    );
    expect(createError({ payloadFilters: [{ field: "a", operator: "like", value: "x" }] })).toMatch(
      /^payloadFilters\.0\.operator: /,
    );
    expect(createError({ payloadFilters: [{ field: "", operator: "exists" }] })).toMatch(
      /^payloadFilters\.0\.field: /,
    );
    const ok = CreateWebhookInput.parse({
      name: "n",
      payloadFilters: [
        { field: "a", operator: "exists" },
        { field: "b", operator: "not_exists" },
        { field: "c", operator: "in", value: ["x", "y"] },
      ],
    });
    expect(ok.payloadFilters).toHaveLength(3);
  });
});

describe("UpdateWebhookInput", () => {
  it("accepts an empty patch and a partial nested object", () => {
    expect(UpdateWebhookInput.parse({})).toEqual({});
    expect(UpdateWebhookInput.parse({ circuitBreaker: { threshold: 9 } })).toEqual({
      circuitBreaker: { threshold: 9 },
    });
  });

  it("drops signingSecret, which only create accepts", () => {
    expect(UpdateWebhookInput.parse({ signingSecret: "whsec_x" })).toEqual({});
  });

  it("allows clearing the fallback URL and the incoming secret with null", () => {
    expect(UpdateWebhookInput.parse({ fallbackUrl: null, incomingSignatureSecret: null })).toEqual({
      fallbackUrl: null,
      incomingSignatureSecret: null,
    });
  });
});

describe("isHttpUrl", () => {
  it("accepts absolute http and https URLs only", () => {
    expect(isHttpUrl("http://localhost:3000/x")).toBe(true);
    expect(isHttpUrl("https://example.com")).toBe(true);
    expect(isHttpUrl("mailto:a@b.c")).toBe(false);
    expect(isHttpUrl("/relative")).toBe(false);
  });
});
