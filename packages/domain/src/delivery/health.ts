/** Webhook health from consecutive final failures of the primary target (docs/decisions.md, "Delivery"). */

/** Health of a webhook or an additional target; every list of them in the code is this one. */
export const HEALTH_STATUSES = ["healthy", "degraded", "down"] as const;
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

export type HealthInput = {
  consecutiveFailures: number;
  degradedAfter: number;
  downAfter: number;
  /** The outcome of the primary target's delivery that just settled. */
  success: boolean;
};

export type HealthState = { consecutiveFailures: number; healthStatus: HealthStatus };

export function healthStatusFor(
  failures: number,
  degradedAfter: number,
  downAfter: number,
): HealthStatus {
  if (failures >= downAfter) return "down";
  if (failures >= degradedAfter) return "degraded";
  return "healthy";
}

/** A success resets to healthy; a failure counts one more and may degrade or take it down. */
export function nextHealth(input: HealthInput): HealthState {
  if (input.success) return { consecutiveFailures: 0, healthStatus: "healthy" };
  const consecutiveFailures = Math.max(0, input.consecutiveFailures) + 1;
  return {
    consecutiveFailures,
    healthStatus: healthStatusFor(consecutiveFailures, input.degradedAfter, input.downAfter),
  };
}
