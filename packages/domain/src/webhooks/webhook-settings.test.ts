import type { Sealed } from "../crypto/key-ring.js";
import { ValidationError } from "../errors.js";
import { CreateWebhookInput, UpdateWebhookInput } from "./webhook-input.js";
import { settingsOfRecord, toWebhookResponse, type WebhookRecord } from "./webhook-response.js";
import { newIngressToken, newSigningSecret } from "./webhook-secrets.js";
import {
  settingsFromCreate,
  settingsFromPatch,
  WEBHOOK_DEFAULTS,
  type WebhookSettings,
} from "./webhook-settings.js";

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error.message;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

const base: WebhookSettings = { ...WEBHOOK_DEFAULTS, name: "base" };

describe("settingsFromCreate", () => {
  it("fills every default of both field sets", () => {
    expect(settingsFromCreate(CreateWebhookInput.parse({ name: "n" }))).toEqual({
      ...WEBHOOK_DEFAULTS,
      name: "n",
    });
    expect(WEBHOOK_DEFAULTS).toMatchObject({
      maxRetries: 3,
      retryDelaySeconds: 60,
      backoffMultiplier: 2,
      degradedAfter: 2,
      downAfter: 4,
      priority: 3,
      circuitBreakerThreshold: 5,
      circuitBreakerCooldownSeconds: 60,
      dedupWindowSeconds: 3600,
      responseMode: "none",
      isActive: true,
    });
  });

  it("treats maxRetries and retryPolicy.maxRetries as one value", () => {
    const a = settingsFromCreate(CreateWebhookInput.parse({ name: "n", maxRetries: 7 }));
    const b = settingsFromCreate(
      CreateWebhookInput.parse({ name: "n", retryPolicy: { maxRetries: 7 } }),
    );
    expect(a.maxRetries).toBe(7);
    expect(b.maxRetries).toBe(7);
    expect(
      messageOf(() =>
        settingsFromCreate(
          CreateWebhookInput.parse({ name: "n", maxRetries: 1, retryPolicy: { maxRetries: 2 } }),
        ),
      ),
    ).toBe("retryPolicy.maxRetries: Must equal maxRetries when both are given");
  });

  it("requires downAfter to be greater than degradedAfter", () => {
    expect(
      messageOf(() =>
        settingsFromCreate(CreateWebhookInput.parse({ name: "n", degradedAfter: 3, downAfter: 3 })),
      ),
    ).toBe("downAfter: Must be greater than degradedAfter (3)");
    expect(
      messageOf(() =>
        settingsFromCreate(CreateWebhookInput.parse({ name: "n", degradedAfter: 5 })),
      ),
    ).toBe("degradedAfter: Must be less than downAfter (4)");
  });

  it("requires an incoming secret unless the signature type is none", () => {
    expect(
      messageOf(() =>
        settingsFromCreate(
          CreateWebhookInput.parse({ name: "n", incomingSignatureType: "github" }),
        ),
      ),
    ).toBe("incomingSignatureSecret: Required when incomingSignatureType is github");
  });

  it("stores filter values as text and drops the value of exists", () => {
    const settings = settingsFromCreate(
      CreateWebhookInput.parse({
        name: "n",
        payloadFilters: [
          { field: "amount", operator: "gt", value: 10 },
          { field: "kind", operator: "in", value: ["a", "b"] },
          { field: "id", operator: "exists", value: "ignored" },
        ],
      }),
    );
    expect(settings.payloadFilters).toEqual([
      { field: "amount", operator: "gt", value: "10" },
      { field: "kind", operator: "in", value: '["a","b"]' },
      { field: "id", operator: "exists" },
    ]);
  });
});

describe("settingsFromPatch", () => {
  it("changes only the given fields and merges nested objects field by field", () => {
    const current = { ...base, circuitBreakerEnabled: true, circuitBreakerThreshold: 8 };
    const next = settingsFromPatch(
      current,
      UpdateWebhookInput.parse({ circuitBreaker: { cooldownSeconds: 5 }, priority: 1 }),
    );
    expect(next).toEqual({ ...current, circuitBreakerCooldownSeconds: 5, priority: 1 });
  });

  it("replaces the payload filter list", () => {
    const current = {
      ...base,
      payloadFilters: [
        { field: "a", operator: "exists" },
        { field: "b", operator: "exists" },
      ],
    };
    const next = settingsFromPatch(
      current,
      UpdateWebhookInput.parse({ payloadFilters: [{ field: "c", operator: "eq", value: "1" }] }),
    );
    expect(next.payloadFilters).toEqual([{ field: "c", operator: "eq", value: "1" }]);
  });

  it("judges cross-field rules against the stored values", () => {
    expect(
      messageOf(() => settingsFromPatch(base, UpdateWebhookInput.parse({ downAfter: 2 }))),
    ).toBe("downAfter: Must be greater than degradedAfter (2)");
    expect(
      messageOf(() =>
        settingsFromPatch(base, UpdateWebhookInput.parse({ incomingSignatureType: "stripe" })),
      ),
    ).toBe("incomingSignatureSecret: Required when incomingSignatureType is stripe");
    const withSecret = { ...base, incomingSignatureSecret: "s" };
    expect(
      settingsFromPatch(withSecret, UpdateWebhookInput.parse({ incomingSignatureType: "stripe" }))
        .incomingSignatureType,
    ).toBe("stripe");
    const signed = {
      ...base,
      incomingSignatureType: "custom" as const,
      incomingSignatureSecret: "s",
    };
    expect(
      messageOf(() =>
        settingsFromPatch(signed, UpdateWebhookInput.parse({ incomingSignatureSecret: null })),
      ),
    ).toBe("incomingSignatureSecret: Required when incomingSignatureType is custom");
  });
});

describe("toWebhookResponse", () => {
  const created = new Date("2024-05-01T10:00:00.000Z");
  const record: WebhookRecord = {
    ...base,
    id: "wh_1",
    ownerId: "usr_1",
    organizationId: null,
    ingressToken: "enc:v1:sealed-token" as Sealed,
    tokenHash: "hash",
    signingSecret: "enc:v1:sealed-signing" as Sealed,
    healthStatus: "degraded",
    consecutiveFailures: 2,
    incomingSignatureType: "github",
    incomingSignatureSecret: "enc:v1:sealed-incoming" as Sealed,
    payloadFilters: [{ field: "a", operator: "eq", value: "1" }],
    circuitState: "open",
    createdAt: created,
    updatedAt: created,
  };

  it("returns the union of both field sets without the incoming secret", () => {
    const body = toWebhookResponse(
      record,
      { ingressToken: "tok", signingSecret: "whsec_abc" },
      "https://hooks.example.com/",
    );
    expect(body).toMatchObject({
      id: "wh_1",
      _id: "wh_1",
      ingressToken: "tok",
      ingressUrl: "https://hooks.example.com/api/in/tok",
      signingSecret: "whsec_abc",
      healthStatus: "degraded",
      retryPolicy: { maxRetries: 3, backoffMultiplier: 2 },
      circuitBreaker: { enabled: false, threshold: 5, cooldownSeconds: 60, state: "open" },
      chaosConfig: { enabled: false, failureRate: 0, latencyMs: 0 },
      deduplication: { enabled: false, windowSeconds: 3600 },
      hasIncomingSignatureSecret: true,
      createdAt: "2024-05-01T10:00:00.000Z",
    });
    expect(JSON.stringify(body)).not.toContain("sealed");
    expect(body).not.toHaveProperty("incomingSignatureSecret");
  });

  it("round-trips the stored settings", () => {
    expect(settingsOfRecord(record, { incomingSignatureSecret: "very secret" })).toMatchObject({
      incomingSignatureType: "github",
      incomingSignatureSecret: "very secret",
      name: "base",
    });
  });
});

describe("secrets", () => {
  it("generates whsec_ plus base64 of 32 bytes and long url-safe ingress tokens", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
    expect(newIngressToken()).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(newIngressToken()).not.toBe(newIngressToken());
  });
});
