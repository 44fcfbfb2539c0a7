import { z } from "zod";

/**
 * Request bodies of `POST /webhooks` and `PATCH /webhooks/:id` (docs/decisions.md, "Webhooks"). Both
 * published field sets are accepted: set A (`maxRetries`, `rateLimitPerMinute`, ...) and set B
 * (`retryPolicy`, `circuitBreaker`, `chaosConfig`, ...). Fields nobody knows are ignored (zod
 * strips them), so a client may send back a webhook it read, read-only fields included.
 * Rules that span fields (`downAfter > degradedAfter`, a secret for a signature type) are checked
 * on the merged settings by `checkWebhookSettings`, because a PATCH must be judged together with
 * what is stored.
 */

export const WEBHOOK_SIGNATURE_TYPES = ["none", "stripe", "github", "custom"] as const;
export type WebhookSignatureType = (typeof WEBHOOK_SIGNATURE_TYPES)[number];

export const WEBHOOK_FILTER_OPERATORS = [
  "eq",
  "neq",
  "contains",
  "gt",
  "lt",
  "exists",
  "not_exists",
  "in",
  "not_in",
] as const;
export type WebhookFilterOperator = (typeof WEBHOOK_FILTER_OPERATORS)[number];

export const WEBHOOK_RESPONSE_MODES = ["none", "sync"] as const;
export type WebhookResponseMode = (typeof WEBHOOK_RESPONSE_MODES)[number];

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** An absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
}

const httpUrl = () =>
  z
    .string()
    .max(WEBHOOK_URL_MAX_LENGTH)
    .refine(isHttpUrl, { message: "Invalid URL" })
    .meta({ format: "uri", description: "Absolute http or https URL" });

const int = (min: number, max: number) => z.number().int().min(min).max(max);

const FilterScalar = z.union([z.string(), z.number(), z.boolean()]);

/**
 * One payload filter. `value` is required except for `exists` and `not_exists`; numbers and
 * booleans are stored as their text, and an array (for `in` / `not_in`) as its JSON text.
 */
export const PayloadFilterInput = z
  .object({
    field: z.string().trim().min(1).max(200).meta({ description: "Dot path, e.g. items.0.sku" }),
    operator: z.enum(WEBHOOK_FILTER_OPERATORS),
    value: z
      .union([FilterScalar, z.array(FilterScalar).max(500)])
      .nullable()
      .optional(),
  })
  .superRefine((filter, ctx) => {
    const needsValue = filter.operator !== "exists" && filter.operator !== "not_exists";
    if (needsValue && (filter.value === undefined || filter.value === null)) {
      ctx.addIssue({
        code: "custom",
        path: ["value"],
        message: `Required for operator ${filter.operator}`,
      });
    }
  });
export type PayloadFilterInput = z.infer<typeof PayloadFilterInput>;

export const RetryPolicyInput = z.object({
  maxRetries: int(0, 20).optional().meta({ description: "Same value as maxRetries" }),
  backoffMultiplier: z.number().min(1).max(10).optional(),
});

export const CircuitBreakerInput = z.object({
  enabled: z.boolean().optional(),
  threshold: int(1, 1000).optional(),
  cooldownSeconds: int(1, 86_400).optional(),
});

export const ChaosConfigInput = z.object({
  enabled: z.boolean().optional(),
  failureRate: z.number().min(0).max(100).optional(),
  latencyMs: int(0, 60_000).optional(),
});

export const DeduplicationInput = z.object({
  enabled: z.boolean().optional(),
  windowSeconds: int(1, 7 * 86_400).optional(),
});

const chainIds = z
  .array(z.string().min(1).max(100))
  .max(20)
  .refine((ids) => new Set(ids).size === ids.length, { message: "Duplicate webhook id" });

/** Every writable field; all optional here, `name` is made required for create. */
const writableFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000),
  targetUrl: z
    .string()
    .max(WEBHOOK_URL_MAX_LENGTH)
    .refine((value) => value === "" || isHttpUrl(value), { message: "Invalid URL" })
    .meta({ description: "Absolute http(s) URL; empty for a notification-only webhook" }),
  isActive: z.boolean(),
  maxRetries: int(0, 20),
  retryDelaySeconds: int(10, 86_400),
  retryPolicy: RetryPolicyInput,
  rateLimitPerMinute: int(0, 1_000_000).meta({ description: "0 = unlimited" }),
  rateLimitPerSecond: int(0, 100_000).meta({ description: "0 = unlimited" }),
  incomingSignatureType: z.enum(WEBHOOK_SIGNATURE_TYPES),
  incomingSignatureSecret: z.string().min(1).max(1000).nullable(),
  payloadFilters: z.array(PayloadFilterInput).max(50),
  degradedAfter: int(1, 10_000),
  downAfter: int(1, 10_000).meta({ description: "Must be greater than degradedAfter" }),
  circuitBreaker: CircuitBreakerInput,
  priority: int(1, 5).meta({ description: "1 = highest, 5 = lowest" }),
  fallbackUrl: httpUrl().nullable(),
  chaosConfig: ChaosConfigInput,
  acceptsInternalCalls: z.boolean(),
  responseMode: z.enum(WEBHOOK_RESPONSE_MODES),
  deduplication: DeduplicationInput,
  chainWebhookIds: chainIds,
};

const optionalFields = Object.fromEntries(
  Object.entries(writableFields).map(([key, schema]) => [key, schema.optional()]),
) as { [K in keyof typeof writableFields]: z.ZodOptional<(typeof writableFields)[K]> };

export const CreateWebhookInput = z
  .object({
    ...optionalFields,
    name: writableFields.name,
    signingSecret: z
      .string()
      .min(7)
      .max(256)
      .startsWith("whsec_")
      .optional()
      .meta({ description: "Generated when absent; must start with whsec_", pattern: "^whsec_" }),
  })
  .meta({ id: "CreateWebhookInput" });
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

export const UpdateWebhookInput = z
  .object(optionalFields)
  .meta({ id: "UpdateWebhookInput", description: "Only the fields given change" });
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;
