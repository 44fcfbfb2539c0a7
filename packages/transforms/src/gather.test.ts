import { gatherWaitMs } from "./gather.js";

describe("gathering calls under load", () => {
  const loaded = { lastStartAtMs: 996, inFlight: false, loaded: true };
  const hot = { nowMs: 1_000, runs: loaded, gatherMs: 10, full: false };

  it("makes a key or process under load wait out its gather window after its last run started", () => {
    expect(gatherWaitMs(hot)).toBe(6);
    expect(gatherWaitMs({ ...hot, nowMs: 1_006 })).toBe(0);
  });

  it("holds the calls while its run is in flight, unless they fill a batch", () => {
    const inFlight = { ...loaded, inFlight: true };
    expect(gatherWaitMs({ ...hot, runs: inFlight })).toBe(Number.POSITIVE_INFINITY);
    expect(gatherWaitMs({ ...hot, runs: { ...inFlight, loaded: false } })).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(gatherWaitMs({ ...hot, runs: inFlight, full: true })).toBe(0);
  });

  it("starts a lone call at once: a new key, a key not under load, a full batch, gathering off", () => {
    expect(gatherWaitMs({ ...hot, runs: undefined })).toBe(0);
    expect(gatherWaitMs({ ...hot, runs: { ...loaded, loaded: false } })).toBe(0);
    expect(gatherWaitMs({ ...hot, runs: { ...loaded, lastStartAtMs: 980 } })).toBe(0);
    expect(gatherWaitMs({ ...hot, full: true })).toBe(0);
    expect(gatherWaitMs({ ...hot, gatherMs: 0 })).toBe(0);
  });
});
