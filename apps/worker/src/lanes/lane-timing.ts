import type { HookflowConfig } from "@hookflow/config";
import { lockDurationMs } from "../delivery/timing.js";

/** BullMQ's own stalled-job check interval, kept in production. */
const STALLED_INTERVAL_MS = 30_000;
/** Floors that hold however small `HOOKFLOW_DELAY_SCALE` is. */
const MIN_LOCK_MARGIN_MS = 5_000;
const MIN_STALLED_INTERVAL_MS = 250;

export interface LaneTiming {
  /** How long a job's lock lasts without renewal (BullMQ renews it at half this while alive). */
  lockDuration: number;
  /** How often a worker looks for jobs whose lock expired (their worker died). */
  stalledInterval: number;
}

/**
 * Lock and stalled-check timing of the lane workers. The lock always outlives the HTTP timeout
 * by a margin (chaos latency and database writes; `lockDurationMs`), so a live worker's delivery
 * is never handed to a second worker, even one that stops renewing it (event loop stalled, Redis
 * briefly unreachable). A dead worker's jobs come back within one lock plus two stalled
 * intervals (about 160 s with the defaults). `HOOKFLOW_DELAY_SCALE` below 1 (tests and demos)
 * shrinks the margin (never under 5 s) and the check interval, so a crash recovers in seconds;
 * the lock still outlives the HTTP timeout.
 */
export function laneTiming(
  config: Pick<HookflowConfig, "deliveryTimeoutMs" | "delayScale">,
): LaneTiming {
  const scale = Math.min(1, config.delayScale);
  const margin = lockDurationMs(config.deliveryTimeoutMs) - config.deliveryTimeoutMs;
  return {
    lockDuration:
      config.deliveryTimeoutMs + Math.max(MIN_LOCK_MARGIN_MS, Math.round(margin * scale)),
    stalledInterval: Math.max(MIN_STALLED_INTERVAL_MS, Math.round(STALLED_INTERVAL_MS * scale)),
  };
}
