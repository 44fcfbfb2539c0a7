import fc from "fast-check";
import { AppError } from "../errors.js";
import { CreateWebhookInput, UpdateWebhookInput } from "./webhook-input.js";
import { settingsFromCreate, settingsFromPatch, WEBHOOK_DEFAULTS } from "./webhook-settings.js";

/** Bodies near the schema (right keys, any values) and far from it (any JSON). */
const fieldValue = fc.oneof(
  fc.jsonValue(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constantFrom("", "whsec_", "http://x", "https://example.com/hook", "none", "stripe", "sync"),
);
const keys = [
  "name",
  "description",
  "targetUrl",
  "isActive",
  "maxRetries",
  "retryDelaySeconds",
  "retryPolicy",
  "rateLimitPerMinute",
  "rateLimitPerSecond",
  "incomingSignatureType",
  "incomingSignatureSecret",
  "payloadFilters",
  "degradedAfter",
  "downAfter",
  "circuitBreaker",
  "priority",
  "fallbackUrl",
  "chaosConfig",
  "acceptsInternalCalls",
  "responseMode",
  "deduplication",
  "chainWebhookIds",
  "signingSecret",
  "__proto__",
  "constructor",
];
const body = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...keys), fieldValue, { maxKeys: 8 }),
  fc.record({ name: fc.string() }).chain((base) =>
    fc.dictionary(fc.constantFrom(...keys), fieldValue, { maxKeys: 6 }).map((rest) => ({
      ...rest,
      ...base,
    })),
  ),
);

/** What a route does with a body: parse it, then judge the settings; only typed errors escape. */
function judge(run: () => unknown): "ok" | "rejected" {
  try {
    run();
    return "ok";
  } catch (error) {
    if (error instanceof AppError) return "rejected";
    throw error;
  }
}

describe("webhook inputs, properties", () => {
  it("are either accepted or rejected with a validation error, never anything else", () => {
    fc.assert(
      fc.property(body, (input) => {
        const created = CreateWebhookInput.safeParse(input);
        if (created.success) judge(() => settingsFromCreate(created.data));
        const patched = UpdateWebhookInput.safeParse(input);
        if (patched.success)
          judge(() => settingsFromPatch({ ...WEBHOOK_DEFAULTS, name: "hook" }, patched.data));
      }),
    );
  });

  it("keep accepted settings inside their documented ranges", () => {
    fc.assert(
      fc.property(body, (input) => {
        const created = CreateWebhookInput.safeParse(input);
        if (!created.success) return;
        let settings: ReturnType<typeof settingsFromCreate>;
        try {
          settings = settingsFromCreate(created.data);
        } catch {
          return;
        }
        expect(settings.maxRetries).toBeGreaterThanOrEqual(0);
        expect(settings.maxRetries).toBeLessThanOrEqual(20);
        expect(settings.retryDelaySeconds).toBeGreaterThanOrEqual(10);
        expect(settings.priority).toBeGreaterThanOrEqual(1);
        expect(settings.priority).toBeLessThanOrEqual(5);
        expect(settings.downAfter).toBeGreaterThan(settings.degradedAfter);
        expect(settings.chaosFailureRate).toBeGreaterThanOrEqual(0);
        expect(settings.chaosFailureRate).toBeLessThanOrEqual(100);
        expect(settings.name.trim().length).toBeGreaterThan(0);
      }),
    );
  });
});
