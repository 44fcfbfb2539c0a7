import {
  type CircuitState,
  CLOSED_CIRCUIT,
  canAttempt,
  recordResult,
  startProbe,
} from "./circuit-breaker.js";

const config = { threshold: 3, cooldownSeconds: 30 };
const T0 = 1_700_000_000_000;

function failTimes(state: CircuitState, n: number, nowMs: number): CircuitState {
  let next = state;
  for (let i = 0; i < n; i++) next = recordResult(next, config, false, nowMs);
  return next;
}

describe("circuit breaker", () => {
  it("allows attempts while closed and counts failures below the threshold", () => {
    const state = failTimes(CLOSED_CIRCUIT, 2, T0);
    expect(state).toMatchObject({ state: "closed", failures: 2, openedAtMs: null });
    expect(canAttempt(state, config, T0, 1)).toEqual({ allow: true, probe: false });
  });

  it("opens after threshold consecutive failures and defers until the cooldown ends", () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, T0);
    expect(open).toMatchObject({ state: "open", failures: 3, openedAtMs: T0 });
    expect(canAttempt(open, config, T0 + 29_999, 1)).toEqual({
      allow: false,
      retryAtMs: T0 + 30_000,
    });
  });

  it("resets the count on a success before the threshold", () => {
    const state = recordResult(failTimes(CLOSED_CIRCUIT, 2, T0), config, true, T0);
    expect(failTimes(state, 2, T0).state).toBe("closed");
  });

  it("sends one half-open probe after the cooldown and holds other attempts meanwhile", () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, T0);
    expect(canAttempt(open, config, T0 + 30_000, 1)).toEqual({ allow: true, probe: true });
    const probing = startProbe(open, T0 + 30_000);
    expect(probing).toMatchObject({ state: "half_open", probeInFlight: true });
    const held = canAttempt(probing, config, T0 + 30_001, 1);
    expect(held.allow).toBe(false);
  });

  it("closes when the probe succeeds", () => {
    const probing = startProbe(failTimes(CLOSED_CIRCUIT, 3, T0), T0 + 30_000);
    const closed = recordResult(probing, config, true, T0 + 30_500);
    expect(closed).toEqual(CLOSED_CIRCUIT);
    expect(canAttempt(closed, config, T0 + 30_500, 1)).toEqual({ allow: true, probe: false });
  });

  it("reopens for another cooldown when the probe fails", () => {
    const probing = startProbe(failTimes(CLOSED_CIRCUIT, 3, T0), T0 + 30_000);
    const reopened = recordResult(probing, config, false, T0 + 31_000);
    expect(reopened).toMatchObject({
      state: "open",
      openedAtMs: T0 + 31_000,
      probeInFlight: false,
    });
    expect(canAttempt(reopened, config, T0 + 60_999, 1)).toEqual({
      allow: false,
      retryAtMs: T0 + 61_000,
    });
    expect(canAttempt(reopened, config, T0 + 61_000, 1)).toEqual({ allow: true, probe: true });
  });

  it("scales the cooldown by the delay scale", () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, T0);
    expect(canAttempt(open, config, T0, 0.01)).toEqual({ allow: false, retryAtMs: T0 + 300 });
    expect(canAttempt(open, config, T0 + 300, 0.01)).toEqual({ allow: true, probe: true });
  });

  it("keeps an open circuit open when a late failure arrives", () => {
    const open = failTimes(CLOSED_CIRCUIT, 3, T0);
    const later = recordResult(open, config, false, T0 + 10_000);
    expect(later).toMatchObject({ state: "open", openedAtMs: T0, failures: 4 });
  });

  it("lets a new probe start when the previous one was lost", () => {
    const probing = startProbe(failTimes(CLOSED_CIRCUIT, 3, T0), T0 + 30_000);
    const withTimeout = { ...config, probeTimeoutMs: 5_000 };
    expect(canAttempt(probing, withTimeout, T0 + 34_999, 1)).toEqual({
      allow: false,
      retryAtMs: T0 + 35_000,
    });
    expect(canAttempt(probing, withTimeout, T0 + 35_000, 1)).toEqual({ allow: true, probe: true });
  });
});
