/**
 * Per-webhook circuit breaker as a pure state machine (docs/decisions.md, "Delivery"). The worker keeps
 * the state in Redis and applies these transitions atomically, so all workers share one breaker.
 */

export type CircuitStateName = "closed" | "open" | "half_open";

export type CircuitState = {
  state: CircuitStateName;
  /** Consecutive failed attempts. */
  failures: number;
  /** When the circuit last opened; null while closed. */
  openedAtMs: number | null;
  probeInFlight: boolean;
  /** When the in-flight half-open probe started (lets a lost probe be replaced). */
  probeStartedAtMs?: number | null;
};

export type CircuitConfig = {
  threshold: number;
  cooldownSeconds: number;
  /** A probe not reported within this time is presumed lost and another may start. */
  probeTimeoutMs?: number;
};

export type CircuitDecision = { allow: true; probe: boolean } | { allow: false; retryAtMs: number };

/** Longer than any delivery (HTTP timeout plus chaos latency) so a live probe is never doubled. */
export const DEFAULT_PROBE_TIMEOUT_MS = 120_000;

export const CLOSED_CIRCUIT: CircuitState = Object.freeze({
  state: "closed",
  failures: 0,
  openedAtMs: null,
  probeInFlight: false,
  probeStartedAtMs: null,
}) as CircuitState;

/** Cooldown in ms after `HOOKFLOW_DELAY_SCALE` (section 14). */
export function cooldownMs(config: CircuitConfig, delayScale: number): number {
  return Math.max(0, Math.round(config.cooldownSeconds * 1000 * delayScale));
}

/**
 * May an attempt go to the primary target now? Closed: yes. Open: not until the cooldown has
 * passed, then yes as the half-open probe. Half-open: only when no probe is in flight.
 */
export function canAttempt(
  state: CircuitState,
  config: CircuitConfig,
  nowMs: number,
  delayScale: number,
): CircuitDecision {
  switch (state.state) {
    case "closed":
      return { allow: true, probe: false };
    case "open": {
      const retryAtMs = (state.openedAtMs ?? nowMs) + cooldownMs(config, delayScale);
      return nowMs >= retryAtMs ? { allow: true, probe: true } : { allow: false, retryAtMs };
    }
    case "half_open": {
      if (!state.probeInFlight) return { allow: true, probe: true };
      const timeout = config.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
      const retryAtMs = (state.probeStartedAtMs ?? nowMs) + timeout;
      return nowMs >= retryAtMs ? { allow: true, probe: true } : { allow: false, retryAtMs };
    }
  }
}

/** The state after a `canAttempt` that allowed a probe: half-open with the probe in flight. */
export function startProbe(state: CircuitState, nowMs: number): CircuitState {
  return { ...state, state: "half_open", probeInFlight: true, probeStartedAtMs: nowMs };
}

/**
 * Apply one attempt's outcome. Success closes the circuit. A failure counts; reaching `threshold`
 * while closed opens it; a failed half-open probe reopens it for another cooldown.
 */
export function recordResult(
  state: CircuitState,
  config: CircuitConfig,
  success: boolean,
  nowMs: number,
): CircuitState {
  if (success) return { ...CLOSED_CIRCUIT };
  const failures = state.failures + 1;
  switch (state.state) {
    case "closed":
      return failures >= config.threshold
        ? {
            state: "open",
            failures,
            openedAtMs: nowMs,
            probeInFlight: false,
            probeStartedAtMs: null,
          }
        : { ...state, failures };
    case "half_open":
      return {
        state: "open",
        failures,
        openedAtMs: nowMs,
        probeInFlight: false,
        probeStartedAtMs: null,
      };
    case "open":
      // A late result of an attempt that started before the circuit opened: stay open.
      return { ...state, failures };
  }
}
