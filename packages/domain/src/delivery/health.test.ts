import { nextHealth } from "./health.js";

describe("nextHealth", () => {
  const limits = { degradedAfter: 2, downAfter: 4 };

  it.each([
    [0, "healthy", 1],
    [1, "degraded", 2],
    [2, "degraded", 3],
    [3, "down", 4],
    [9, "down", 10],
  ] as const)("after %i failures a further failure gives %s", (before, status, after) => {
    expect(nextHealth({ ...limits, consecutiveFailures: before, success: false })).toEqual({
      consecutiveFailures: after,
      healthStatus: status,
    });
  });

  it("returns to healthy and resets the count on the first success", () => {
    expect(nextHealth({ ...limits, consecutiveFailures: 7, success: true })).toEqual({
      consecutiveFailures: 0,
      healthStatus: "healthy",
    });
  });

  it("walks healthy, degraded, down with the default limits", () => {
    let state = { consecutiveFailures: 0, healthStatus: "healthy" as string };
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      state = nextHealth({
        ...limits,
        consecutiveFailures: state.consecutiveFailures,
        success: false,
      });
      seen.push(state.healthStatus);
    }
    expect(seen).toEqual(["healthy", "degraded", "degraded", "down"]);
  });
});
