import type { Schemas } from "../../api/client";
import type { FilterRule } from "./filter-list-editor";
import type { Webhook } from "./webhook-queries";

export type WebhookInput = Schemas["CreateWebhookInput"];

/** The editable fields of a webhook, flat, as the form holds them. */
export interface Draft {
  name: string;
  description: string;
  targetUrl: string;
  isActive: boolean;
  maxRetries?: number;
  retryDelaySeconds?: number;
  backoffMultiplier?: number;
  fallbackUrl: string;
  priority?: number;
  rateLimitPerSecond?: number;
  rateLimitPerMinute?: number;
  responseMode: "none" | "sync";
  degradedAfter?: number;
  downAfter?: number;
  breakerEnabled: boolean;
  breakerThreshold?: number;
  breakerCooldown?: number;
  signatureType: "none" | "stripe" | "github" | "custom";
  signatureSecret: string;
  payloadFilters: FilterRule[];
  dedupEnabled: boolean;
  dedupWindow?: number;
  chaosEnabled: boolean;
  chaosFailureRate?: number;
  chaosLatencyMs?: number;
  acceptsInternalCalls: boolean;
}

/** Sets one field of the draft. */
export type SetDraftField = <K extends keyof Draft>(key: K) => (value: Draft[K]) => void;

export function draftOf(w: Webhook | undefined): Draft {
  return {
    name: w?.name ?? "",
    description: w?.description ?? "",
    targetUrl: w?.targetUrl ?? "",
    isActive: w?.isActive ?? true,
    maxRetries: w?.maxRetries ?? 3,
    retryDelaySeconds: w?.retryDelaySeconds ?? 60,
    backoffMultiplier: w?.retryPolicy.backoffMultiplier ?? 2,
    fallbackUrl: w?.fallbackUrl ?? "",
    priority: w?.priority ?? 3,
    rateLimitPerSecond: w?.rateLimitPerSecond ?? 0,
    rateLimitPerMinute: w?.rateLimitPerMinute ?? 0,
    responseMode: w?.responseMode ?? "none",
    degradedAfter: w?.degradedAfter ?? 2,
    downAfter: w?.downAfter ?? 4,
    breakerEnabled: w?.circuitBreaker.enabled ?? false,
    breakerThreshold: w?.circuitBreaker.threshold ?? 5,
    breakerCooldown: w?.circuitBreaker.cooldownSeconds ?? 60,
    signatureType: w?.incomingSignatureType ?? "none",
    signatureSecret: "",
    payloadFilters: (w?.payloadFilters ?? []).map((f) => ({ ...f, value: f.value ?? "" })),
    dedupEnabled: w?.deduplication.enabled ?? false,
    dedupWindow: w?.deduplication.windowSeconds ?? 3600,
    chaosEnabled: w?.chaosConfig.enabled ?? false,
    chaosFailureRate: w?.chaosConfig.failureRate ?? 0,
    chaosLatencyMs: w?.chaosConfig.latencyMs ?? 0,
    acceptsInternalCalls: w?.acceptsInternalCalls ?? false,
  };
}

export function inputOf(d: Draft, editing: boolean): WebhookInput {
  const input: WebhookInput = {
    name: d.name,
    description: d.description,
    targetUrl: d.targetUrl,
    isActive: d.isActive,
    maxRetries: d.maxRetries,
    retryDelaySeconds: d.retryDelaySeconds,
    retryPolicy: { backoffMultiplier: d.backoffMultiplier },
    fallbackUrl: d.fallbackUrl === "" ? null : d.fallbackUrl,
    priority: d.priority,
    rateLimitPerSecond: d.rateLimitPerSecond,
    rateLimitPerMinute: d.rateLimitPerMinute,
    responseMode: d.responseMode,
    degradedAfter: d.degradedAfter,
    downAfter: d.downAfter,
    circuitBreaker: {
      enabled: d.breakerEnabled,
      threshold: d.breakerThreshold,
      cooldownSeconds: d.breakerCooldown,
    },
    incomingSignatureType: d.signatureType,
    payloadFilters: d.payloadFilters.map((f) => ({
      field: f.field,
      operator: f.operator,
      ...(f.operator === "exists" || f.operator === "not_exists" ? {} : { value: f.value }),
    })),
    deduplication: { enabled: d.dedupEnabled, windowSeconds: d.dedupWindow },
    chaosConfig: {
      enabled: d.chaosEnabled,
      failureRate: d.chaosFailureRate,
      latencyMs: d.chaosLatencyMs,
    },
    acceptsInternalCalls: d.acceptsInternalCalls,
  };
  // The secret is never read back: send it when typed (always on create when required).
  if (d.signatureSecret !== "" || (!editing && d.signatureType !== "none")) {
    input.incomingSignatureSecret = d.signatureSecret;
  }
  return input;
}
