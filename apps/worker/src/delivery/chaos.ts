import { setTimeout as sleep } from "node:timers/promises";
import type { DeliveryWebhook } from "@hookflow/db";

export const CHAOS_ERROR = "chaos: injected failure";

/**
 * Chaos testing (docs/decisions.md, "Delivery"): `latencyMs` before every attempt, then with probability
 * `failureRate`% the attempt fails without a request. Returns true when the attempt must fail.
 */
export async function applyChaos(
  webhook: DeliveryWebhook,
  random: () => number = Math.random,
): Promise<boolean> {
  if (!webhook.chaosEnabled) return false;
  if (webhook.chaosLatencyMs > 0) await sleep(webhook.chaosLatencyMs);
  return webhook.chaosFailureRate > 0 && random() * 100 < webhook.chaosFailureRate;
}
