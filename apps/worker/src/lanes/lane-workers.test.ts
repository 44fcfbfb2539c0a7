import { PRIORITIES } from "@hookflow/queue";
import { lockDurationMs } from "../delivery/timing.js";
import { laneConcurrency } from "./lane-workers.js";

describe("laneConcurrency", () => {
  it("gives priority 1 the largest share and every lane at least one slot", () => {
    expect(PRIORITIES.map((lane) => laneConcurrency(64, lane))).toEqual([26, 14, 12, 8, 5]);
    expect(PRIORITIES.map((lane) => laneConcurrency(1, lane))).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("lockDurationMs", () => {
  it("outlives the HTTP timeout plus the longest chaos latency", () => {
    expect(lockDurationMs(10_000)).toBeGreaterThan(10_000 + 60_000);
  });
});
