/** Longest chaos latency a webhook may configure (docs/decisions.md, "Webhooks"). */
const MAX_CHAOS_LATENCY_MS = 60_000;

/**
 * The job lock outlives the longest attempt (chaos latency + HTTP timeout + margin for the
 * database writes), so an in-flight delivery is never handed to a second worker. BullMQ renews it
 * at half its duration while the job runs; a worker that dies stops renewing and the stalled check
 * hands its job to another worker. The half-open probe timeout uses the same bound.
 */
export function lockDurationMs(deliveryTimeoutMs: number): number {
  return deliveryTimeoutMs + MAX_CHAOS_LATENCY_MS + 30_000;
}
