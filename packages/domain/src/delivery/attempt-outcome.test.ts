import { classifyAttempt, decideAfterFailure } from "./attempt-outcome.js";

describe("classifyAttempt", () => {
  it.each([
    [200, undefined, "success"],
    [204, null, "success"],
    [299, undefined, "success"],
    [301, undefined, "retryable"],
    [400, undefined, "retryable"],
    [404, undefined, "retryable"],
    [429, undefined, "retryable"],
    [500, undefined, "retryable"],
    [503, undefined, "retryable"],
    [410, undefined, "permanent"],
    [0, "chaos: injected failure", "retryable"],
    [null, "timeout after 10000 ms", "retryable"],
    [undefined, "ECONNRESET", "retryable"],
    [200, "body read aborted", "retryable"],
  ] as const)("classifies status %j with error %j as %s", (statusCode, error, expected) => {
    expect(classifyAttempt({ statusCode, error })).toBe(expected);
  });
});

describe("decideAfterFailure", () => {
  const base = { maxRetries: 3, permanent: false, hasFallback: false, onFallback: false };

  it("retries while the primary budget of 1 + maxRetries attempts lasts", () => {
    expect([1, 2, 3].map((attempt) => decideAfterFailure({ ...base, attempt }).kind)).toEqual([
      "retry",
      "retry",
      "retry",
    ]);
    expect(decideAfterFailure({ ...base, attempt: 4 })).toEqual({ kind: "fail" });
  });

  it("fails after the single attempt when maxRetries is 0", () => {
    expect(decideAfterFailure({ ...base, maxRetries: 0, attempt: 1 })).toEqual({ kind: "fail" });
  });

  it("moves to the fallback after the primary's last failure", () => {
    expect(decideAfterFailure({ ...base, hasFallback: true, attempt: 4 })).toEqual({
      kind: "fallback",
    });
  });

  it("gives the fallback its own budget, then fails", () => {
    const onFallback = { ...base, hasFallback: true, onFallback: true };
    expect(decideAfterFailure({ ...onFallback, attempt: 1 })).toEqual({ kind: "retry" });
    expect(decideAfterFailure({ ...onFallback, attempt: 3 })).toEqual({ kind: "retry" });
    expect(decideAfterFailure({ ...onFallback, attempt: 4 })).toEqual({ kind: "fail" });
  });

  it("stops retrying on a permanent failure but still tries the fallback", () => {
    expect(decideAfterFailure({ ...base, permanent: true, attempt: 1 })).toEqual({ kind: "fail" });
    expect(decideAfterFailure({ ...base, permanent: true, hasFallback: true, attempt: 1 })).toEqual(
      { kind: "fallback" },
    );
    expect(
      decideAfterFailure({
        ...base,
        permanent: true,
        hasFallback: true,
        onFallback: true,
        attempt: 1,
      }),
    ).toEqual({ kind: "fail" });
  });
});
