import { z } from "zod";
import type { Sealed } from "../crypto/key-ring.js";
import { HEALTH_STATUSES } from "../delivery/health.js";
import type { WebhookSecrets } from "./sealed-webhook-secrets.js";
import {
  WEBHOOK_FILTER_OPERATORS,
  WEBHOOK_RESPONSE_MODES,
  WEBHOOK_SIGNATURE_TYPES,
} from "./webhook-input.js";
import type { StoredPayloadFilter, WebhookSettings } from "./webhook-settings.js";

export const WEBHOOK_CIRCUIT_STATES = ["closed", "open", "half_open"] as const;

/**
 * A stored webhook: the columns of the `webhooks` table, structurally. Credentials are stored
 * sealed; whatever shows or uses them takes them opened, as `WebhookSecrets`.
 */
export interface WebhookRecord {
  id: string;
  ownerId: string;
  organizationId: string | null;
  name: string;
  description: string;
  targetUrl: string;
  isActive: boolean;
  ingressToken: Sealed;
  tokenHash: string | null;
  signingSecret: Sealed;
  healthStatus: string;
  consecutiveFailures: number;
  maxRetries: number;
  retryDelaySeconds: number;
  backoffMultiplier: number;
  rateLimitPerMinute: number;
  rateLimitPerSecond: number;
  incomingSignatureType: string;
  incomingSignatureSecret: Sealed | null;
  payloadFilters: StoredPayloadFilter[];
  degradedAfter: number;
  downAfter: number;
  circuitBreakerEnabled: boolean;
  circuitBreakerThreshold: number;
  circuitBreakerCooldownSeconds: number;
  circuitState: string;
  priority: number;
  fallbackUrl: string | null;
  chaosEnabled: boolean;
  chaosFailureRate: number;
  chaosLatencyMs: number;
  acceptsInternalCalls: boolean;
  responseMode: string;
  dedupEnabled: boolean;
  dedupWindowSeconds: number;
  chainWebhookIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The union of both field sets (docs/decisions.md, "Webhooks"); the incoming secret is never shown. */
export const WebhookResponse = z
  .object({
    id: z.string(),
    _id: z.string(),
    name: z.string(),
    description: z.string(),
    targetUrl: z.string(),
    isActive: z.boolean(),
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    ingressToken: z.string(),
    ingressUrl: z.string(),
    signingSecret: z.string(),
    healthStatus: z.enum(HEALTH_STATUSES),
    consecutiveFailures: z.number().int(),
    maxRetries: z.number().int(),
    retryDelaySeconds: z.number().int(),
    retryPolicy: z.object({ maxRetries: z.number().int(), backoffMultiplier: z.number() }),
    rateLimitPerMinute: z.number().int(),
    rateLimitPerSecond: z.number().int(),
    incomingSignatureType: z.enum(WEBHOOK_SIGNATURE_TYPES),
    hasIncomingSignatureSecret: z.boolean(),
    payloadFilters: z.array(
      z.object({
        field: z.string(),
        operator: z.enum(WEBHOOK_FILTER_OPERATORS),
        value: z.string().optional(),
      }),
    ),
    degradedAfter: z.number().int(),
    downAfter: z.number().int(),
    circuitBreaker: z.object({
      enabled: z.boolean(),
      threshold: z.number().int(),
      cooldownSeconds: z.number().int(),
      state: z.enum(WEBHOOK_CIRCUIT_STATES),
    }),
    priority: z.number().int(),
    fallbackUrl: z.string().nullable(),
    chaosConfig: z.object({
      enabled: z.boolean(),
      failureRate: z.number(),
      latencyMs: z.number().int(),
    }),
    acceptsInternalCalls: z.boolean(),
    responseMode: z.enum(WEBHOOK_RESPONSE_MODES),
    deduplication: z.object({ enabled: z.boolean(), windowSeconds: z.number().int() }),
    chainWebhookIds: z.array(z.string()),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "Webhook" });
export type WebhookResponse = z.infer<typeof WebhookResponse>;

function oneOf<T extends string>(values: readonly T[], value: string, fallback: T): T {
  return (values as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** The public ingress address of a token. */
export function ingressUrlOf(publicBaseUrl: string, ingressToken: string): string {
  return `${publicBaseUrl.replace(/\/+$/, "")}/api/in/${ingressToken}`;
}

/** The response body of a stored webhook, with its credentials opened by the caller. */
export function toWebhookResponse(
  row: WebhookRecord,
  secrets: Pick<WebhookSecrets, "ingressToken" | "signingSecret">,
  publicBaseUrl: string,
): WebhookResponse {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    description: row.description,
    targetUrl: row.targetUrl,
    isActive: row.isActive,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    ingressToken: secrets.ingressToken,
    ingressUrl: ingressUrlOf(publicBaseUrl, secrets.ingressToken),
    signingSecret: secrets.signingSecret,
    healthStatus: oneOf(HEALTH_STATUSES, row.healthStatus, "healthy"),
    consecutiveFailures: row.consecutiveFailures,
    maxRetries: row.maxRetries,
    retryDelaySeconds: row.retryDelaySeconds,
    retryPolicy: { maxRetries: row.maxRetries, backoffMultiplier: row.backoffMultiplier },
    rateLimitPerMinute: row.rateLimitPerMinute,
    rateLimitPerSecond: row.rateLimitPerSecond,
    incomingSignatureType: oneOf(WEBHOOK_SIGNATURE_TYPES, row.incomingSignatureType, "none"),
    hasIncomingSignatureSecret: row.incomingSignatureSecret !== null,
    payloadFilters: row.payloadFilters.map((filter) => ({
      field: filter.field,
      operator: oneOf(WEBHOOK_FILTER_OPERATORS, filter.operator, "eq"),
      ...(filter.value === undefined ? {} : { value: filter.value }),
    })),
    degradedAfter: row.degradedAfter,
    downAfter: row.downAfter,
    circuitBreaker: {
      enabled: row.circuitBreakerEnabled,
      threshold: row.circuitBreakerThreshold,
      cooldownSeconds: row.circuitBreakerCooldownSeconds,
      state: oneOf(WEBHOOK_CIRCUIT_STATES, row.circuitState, "closed"),
    },
    priority: row.priority,
    fallbackUrl: row.fallbackUrl,
    chaosConfig: {
      enabled: row.chaosEnabled,
      failureRate: row.chaosFailureRate,
      latencyMs: row.chaosLatencyMs,
    },
    acceptsInternalCalls: row.acceptsInternalCalls,
    responseMode: oneOf(WEBHOOK_RESPONSE_MODES, row.responseMode, "none"),
    deduplication: { enabled: row.dedupEnabled, windowSeconds: row.dedupWindowSeconds },
    chainWebhookIds: row.chainWebhookIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Settings of a stored webhook, for `applyWebhookPatch`, with its incoming secret opened. */
export function settingsOfRecord(
  row: WebhookRecord,
  secrets: Pick<WebhookSecrets, "incomingSignatureSecret">,
): WebhookSettings {
  return {
    name: row.name,
    description: row.description,
    targetUrl: row.targetUrl,
    isActive: row.isActive,
    maxRetries: row.maxRetries,
    retryDelaySeconds: row.retryDelaySeconds,
    backoffMultiplier: row.backoffMultiplier,
    rateLimitPerMinute: row.rateLimitPerMinute,
    rateLimitPerSecond: row.rateLimitPerSecond,
    incomingSignatureType: oneOf(WEBHOOK_SIGNATURE_TYPES, row.incomingSignatureType, "none"),
    incomingSignatureSecret: secrets.incomingSignatureSecret,
    payloadFilters: row.payloadFilters,
    degradedAfter: row.degradedAfter,
    downAfter: row.downAfter,
    circuitBreakerEnabled: row.circuitBreakerEnabled,
    circuitBreakerThreshold: row.circuitBreakerThreshold,
    circuitBreakerCooldownSeconds: row.circuitBreakerCooldownSeconds,
    priority: row.priority,
    fallbackUrl: row.fallbackUrl,
    chaosEnabled: row.chaosEnabled,
    chaosFailureRate: row.chaosFailureRate,
    chaosLatencyMs: row.chaosLatencyMs,
    acceptsInternalCalls: row.acceptsInternalCalls,
    responseMode: oneOf(WEBHOOK_RESPONSE_MODES, row.responseMode, "none"),
    dedupEnabled: row.dedupEnabled,
    dedupWindowSeconds: row.dedupWindowSeconds,
    chainWebhookIds: row.chainWebhookIds,
  };
}
