import { ValidationError } from "../errors.js";
import type {
  CreateWebhookInput,
  PayloadFilterInput,
  UpdateWebhookInput,
  WebhookResponseMode,
  WebhookSignatureType,
} from "./webhook-input.js";

/** A payload filter as stored: `value` is text (JSON text for an array). */
export interface StoredPayloadFilter {
  field: string;
  operator: string;
  value?: string | undefined;
}

/**
 * The writable settings of a webhook in the flat form the database stores. Property names match
 * the `webhooks` table's columns, so a value of this type can be written as is.
 */
export interface WebhookSettings {
  name: string;
  description: string;
  targetUrl: string;
  isActive: boolean;
  maxRetries: number;
  retryDelaySeconds: number;
  backoffMultiplier: number;
  rateLimitPerMinute: number;
  rateLimitPerSecond: number;
  incomingSignatureType: WebhookSignatureType;
  incomingSignatureSecret: string | null;
  payloadFilters: StoredPayloadFilter[];
  degradedAfter: number;
  downAfter: number;
  circuitBreakerEnabled: boolean;
  circuitBreakerThreshold: number;
  circuitBreakerCooldownSeconds: number;
  priority: number;
  fallbackUrl: string | null;
  chaosEnabled: boolean;
  chaosFailureRate: number;
  chaosLatencyMs: number;
  acceptsInternalCalls: boolean;
  responseMode: WebhookResponseMode;
  dedupEnabled: boolean;
  dedupWindowSeconds: number;
  chainWebhookIds: string[];
}

/** Defaults of both field sets and docs/decisions.md, "Webhooks". */
export const WEBHOOK_DEFAULTS: Omit<WebhookSettings, "name"> = {
  description: "",
  targetUrl: "",
  isActive: true,
  maxRetries: 3,
  retryDelaySeconds: 60,
  backoffMultiplier: 2,
  rateLimitPerMinute: 0,
  rateLimitPerSecond: 0,
  incomingSignatureType: "none",
  incomingSignatureSecret: null,
  payloadFilters: [],
  degradedAfter: 2,
  downAfter: 4,
  circuitBreakerEnabled: false,
  circuitBreakerThreshold: 5,
  circuitBreakerCooldownSeconds: 60,
  priority: 3,
  fallbackUrl: null,
  chaosEnabled: false,
  chaosFailureRate: 0,
  chaosLatencyMs: 0,
  acceptsInternalCalls: false,
  responseMode: "none",
  dedupEnabled: false,
  dedupWindowSeconds: 3600,
  chainWebhookIds: [],
};

export function storePayloadFilter(filter: PayloadFilterInput): StoredPayloadFilter {
  const stored: StoredPayloadFilter = { field: filter.field, operator: filter.operator };
  if (filter.operator === "exists" || filter.operator === "not_exists") return stored;
  const value = filter.value;
  if (value === undefined || value === null) return stored;
  stored.value = Array.isArray(value) ? JSON.stringify(value) : String(value);
  return stored;
}

/** `maxRetries` and `retryPolicy.maxRetries` are one value; giving two different ones is a 400. */
function maxRetriesOf(input: UpdateWebhookInput): number | undefined {
  const flat = input.maxRetries;
  const nested = input.retryPolicy?.maxRetries;
  if (flat !== undefined && nested !== undefined && flat !== nested) {
    throw new ValidationError("retryPolicy.maxRetries: Must equal maxRetries when both are given");
  }
  return flat ?? nested;
}

/**
 * The settings after applying `patch` to `current`: only the fields given change, nested objects
 * merge field by field, `payloadFilters` and `chainWebhookIds` replace the whole list.
 */
export function applyWebhookPatch(
  current: WebhookSettings,
  patch: UpdateWebhookInput,
): WebhookSettings {
  const next: WebhookSettings = { ...current, payloadFilters: [...current.payloadFilters] };
  const set = <K extends keyof WebhookSettings>(key: K, value: WebhookSettings[K] | undefined) => {
    if (value !== undefined) next[key] = value;
  };
  set("name", patch.name);
  set("description", patch.description);
  set("targetUrl", patch.targetUrl);
  set("isActive", patch.isActive);
  set("maxRetries", maxRetriesOf(patch));
  set("retryDelaySeconds", patch.retryDelaySeconds);
  set("backoffMultiplier", patch.retryPolicy?.backoffMultiplier);
  set("rateLimitPerMinute", patch.rateLimitPerMinute);
  set("rateLimitPerSecond", patch.rateLimitPerSecond);
  set("incomingSignatureType", patch.incomingSignatureType);
  set("incomingSignatureSecret", patch.incomingSignatureSecret);
  set("payloadFilters", patch.payloadFilters?.map(storePayloadFilter));
  set("degradedAfter", patch.degradedAfter);
  set("downAfter", patch.downAfter);
  set("circuitBreakerEnabled", patch.circuitBreaker?.enabled);
  set("circuitBreakerThreshold", patch.circuitBreaker?.threshold);
  set("circuitBreakerCooldownSeconds", patch.circuitBreaker?.cooldownSeconds);
  set("priority", patch.priority);
  set("fallbackUrl", patch.fallbackUrl);
  set("chaosEnabled", patch.chaosConfig?.enabled);
  set("chaosFailureRate", patch.chaosConfig?.failureRate);
  set("chaosLatencyMs", patch.chaosConfig?.latencyMs);
  set("acceptsInternalCalls", patch.acceptsInternalCalls);
  set("responseMode", patch.responseMode);
  set("dedupEnabled", patch.deduplication?.enabled);
  set("dedupWindowSeconds", patch.deduplication?.windowSeconds);
  set("chainWebhookIds", patch.chainWebhookIds);
  return next;
}

/**
 * Rules that span fields, judged on the whole settings (after a PATCH: the merged result).
 * `touched` names the fields the request gave, so the message names the one the caller sent.
 */
export function checkWebhookSettings(
  settings: WebhookSettings,
  touched: ReadonlySet<string> = new Set(),
): void {
  if (settings.downAfter <= settings.degradedAfter) {
    throw new ValidationError(
      touched.has("downAfter") || !touched.has("degradedAfter")
        ? `downAfter: Must be greater than degradedAfter (${settings.degradedAfter})`
        : `degradedAfter: Must be less than downAfter (${settings.downAfter})`,
    );
  }
  if (settings.incomingSignatureType !== "none" && !settings.incomingSignatureSecret) {
    throw new ValidationError(
      `incomingSignatureSecret: Required when incomingSignatureType is ${settings.incomingSignatureType}`,
    );
  }
}

/** Settings of a new webhook: the input over the defaults, checked. */
export function settingsFromCreate(input: CreateWebhookInput): WebhookSettings {
  const settings = applyWebhookPatch({ ...WEBHOOK_DEFAULTS, name: input.name }, input);
  checkWebhookSettings(settings, new Set(Object.keys(input)));
  return settings;
}

/** Settings after a PATCH, checked against the merged result. */
export function settingsFromPatch(
  current: WebhookSettings,
  patch: UpdateWebhookInput,
): WebhookSettings {
  const settings = applyWebhookPatch(current, patch);
  checkWebhookSettings(settings, new Set(Object.keys(patch)));
  return settings;
}
