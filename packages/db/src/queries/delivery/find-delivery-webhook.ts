import type { Sealed } from "@hookflow/domain";
import type { Database } from "../../client.js";
import { eq } from "../../drizzle.js";
import { webhooks } from "../../schema/index.js";

const deliveryColumns = {
  id: webhooks.id,
  ownerId: webhooks.ownerId,
  organizationId: webhooks.organizationId,
  targetUrl: webhooks.targetUrl,
  isActive: webhooks.isActive,
  signingSecret: webhooks.signingSecret,
  maxRetries: webhooks.maxRetries,
  retryDelaySeconds: webhooks.retryDelaySeconds,
  backoffMultiplier: webhooks.backoffMultiplier,
  rateLimitPerMinute: webhooks.rateLimitPerMinute,
  rateLimitPerSecond: webhooks.rateLimitPerSecond,
  payloadFilters: webhooks.payloadFilters,
  degradedAfter: webhooks.degradedAfter,
  downAfter: webhooks.downAfter,
  circuitBreakerEnabled: webhooks.circuitBreakerEnabled,
  circuitBreakerThreshold: webhooks.circuitBreakerThreshold,
  circuitBreakerCooldownSeconds: webhooks.circuitBreakerCooldownSeconds,
  circuitState: webhooks.circuitState,
  priority: webhooks.priority,
  fallbackUrl: webhooks.fallbackUrl,
  chaosEnabled: webhooks.chaosEnabled,
  chaosFailureRate: webhooks.chaosFailureRate,
  chaosLatencyMs: webhooks.chaosLatencyMs,
  responseMode: webhooks.responseMode,
  chainWebhookIds: webhooks.chainWebhookIds,
  acceptsInternalCalls: webhooks.acceptsInternalCalls,
};

/** The settings a delivery worker needs from a webhook, as stored (the signing secret sealed). */
export interface StoredDeliveryWebhook extends Omit<DeliveryWebhook, "signingSecret"> {
  signingSecret: Sealed;
}

/** The settings a delivery worker needs from a webhook (it caches them per webhook, opened). */
export interface DeliveryWebhook {
  id: string;
  /** Owner columns: a forward from the webhook's graph must stay in its owner scope. */
  ownerId: string;
  organizationId: string | null;
  targetUrl: string;
  isActive: boolean;
  /** Consent to flow links and AI tools of the same owner running its pipeline. */
  acceptsInternalCalls: boolean;
  /** In clear: the worker opens it once per cache load, never per delivery. */
  signingSecret: string;
  maxRetries: number;
  retryDelaySeconds: number;
  backoffMultiplier: number;
  rateLimitPerMinute: number;
  rateLimitPerSecond: number;
  payloadFilters: Array<{ field: string; operator: string; value?: string | undefined }>;
  degradedAfter: number;
  downAfter: number;
  circuitBreakerEnabled: boolean;
  circuitBreakerThreshold: number;
  circuitBreakerCooldownSeconds: number;
  circuitState: string;
  priority: number;
  /** The webhooks a delivered event of this one continues to, in order (docs/decisions.md, "Chains"). */
  chainWebhookIds: string[];
  fallbackUrl: string | null;
  chaosEnabled: boolean;
  chaosFailureRate: number;
  chaosLatencyMs: number;
  /** `sync`: an ingress request may be waiting for the event's result. */
  responseMode: string;
}

export async function findDeliveryWebhook(
  db: Database,
  id: string,
): Promise<StoredDeliveryWebhook | undefined> {
  const [row] = await db.select(deliveryColumns).from(webhooks).where(eq(webhooks.id, id)).limit(1);
  return row;
}
