import { lockDurationMs } from "../delivery/timing.js";
import { laneTiming } from "./lane-timing.js";

describe("laneTiming", () => {
  it("keeps the full lock margin and BullMQ's stalled interval at scale 1", () => {
    expect(laneTiming({ deliveryTimeoutMs: 10_000, delayScale: 1 })).toEqual({
      lockDuration: lockDurationMs(10_000),
      stalledInterval: 30_000,
    });
  });

  it("never grows the timing past production when the scale is above 1", () => {
    expect(laneTiming({ deliveryTimeoutMs: 10_000, delayScale: 50 })).toEqual(
      laneTiming({ deliveryTimeoutMs: 10_000, delayScale: 1 }),
    );
  });

  it.each([0.1, 0.01, 0.001])(
    "at scale %p keeps the lock at least 5 s beyond the HTTP timeout",
    (delayScale) => {
      for (const deliveryTimeoutMs of [100, 1_000, 10_000]) {
        const timing = laneTiming({ deliveryTimeoutMs, delayScale });
        expect(timing.lockDuration).toBeGreaterThanOrEqual(deliveryTimeoutMs + 5_000);
        expect(timing.lockDuration).toBeLessThanOrEqual(lockDurationMs(deliveryTimeoutMs));
        expect(timing.stalledInterval).toBeGreaterThanOrEqual(250);
        expect(timing.stalledInterval).toBeLessThan(30_000);
      }
    },
  );
});
