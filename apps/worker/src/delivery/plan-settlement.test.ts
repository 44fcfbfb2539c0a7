import type { SendResult } from "./http-sender.js";
import { planSettlement, type SettlementInput } from "./plan-settlement.js";

const now = new Date("2026-01-01T00:00:00.000Z");
const ok: SendResult = {
  statusCode: 200,
  responseBody: "",
  retryAfter: null,
  latencyMs: 3,
  error: null,
  refused: false,
};
const failed = { ...ok, statusCode: 500 };

function input(overrides: Partial<SettlementInput> = {}): SettlementInput {
  return {
    result: ok,
    verdict: "success",
    attempt: 1,
    phase: "primary",
    phaseAttempts: 1,
    webhook: { maxRetries: 2, retryDelaySeconds: 10, backoffMultiplier: 2, fallbackUrl: null },
    delayScale: 1,
    random: () => 0.5,
    now,
    ...overrides,
  };
}

describe("planSettlement", () => {
  it("delivers: the event is delivered now and the primary counts a success", () => {
    const plan = planSettlement(input());
    expect(plan.event).toEqual({
      attemptCount: 1,
      lastError: null,
      lastStatusCode: 200,
      status: "delivered",
      nextAttemptAt: null,
      deliveredAt: now,
      deliveryPhase: "primary",
      phaseAttemptCount: 1,
    });
    expect(plan.primaryOutcome).toEqual({ success: true });
    expect(plan.next).toEqual({
      attempt: 1,
      statusCode: 200,
      error: null,
      kind: "done",
      outcome: "delivered",
    });
  });

  it("a delivery on the fallback target does not count toward the primary's health", () => {
    const plan = planSettlement(input({ phase: "fallback" }));
    expect(plan.event.status).toBe("delivered");
    expect(plan.primaryOutcome).toBeUndefined();
  });

  it("retries within the budget, at the backoff's time, without a health outcome", () => {
    const plan = planSettlement(input({ result: failed, verdict: "retryable" }));
    // Second attempt: the base delay of 10 s (jitter centred by random 0.5).
    const at = now.getTime() + 10_000;
    expect(plan.event).toMatchObject({
      status: "retrying",
      lastError: "HTTP 500",
      nextAttemptAt: new Date(at),
      phaseAttemptCount: 1,
    });
    expect(plan.primaryOutcome).toBeUndefined();
    expect(plan.next).toMatchObject({ kind: "delay", untilMs: at, outcome: "retrying" });
  });

  it("moves to the fallback at once after the primary's last attempt", () => {
    const plan = planSettlement(
      input({
        result: failed,
        verdict: "retryable",
        attempt: 3,
        phaseAttempts: 3,
        webhook: { ...input().webhook, fallbackUrl: "https://fallback.example" },
      }),
    );
    expect(plan.event).toMatchObject({
      status: "retrying",
      nextAttemptAt: now,
      deliveryPhase: "fallback",
      phaseAttemptCount: 0,
    });
    expect(plan.primaryOutcome).toEqual({ success: false });
    expect(plan.next).toMatchObject({ kind: "delay", untilMs: now.getTime(), outcome: "fallback" });
  });

  it("fails after the last attempt with no fallback, and at once on a permanent failure", () => {
    const spent = planSettlement(
      input({ result: failed, verdict: "retryable", attempt: 3, phaseAttempts: 3 }),
    );
    expect(spent.event).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(spent.primaryOutcome).toEqual({ success: false });
    expect(spent.next).toMatchObject({ kind: "unrecoverable", outcome: "failed" });

    const gone = planSettlement(
      input({ result: { ...ok, statusCode: 410 }, verdict: "permanent" }),
    );
    expect(gone.event.status).toBe("failed");
    expect(gone.lastError).toBe("HTTP 410");
  });

  it("a failure on the fallback target fails the event without touching the primary's health", () => {
    const plan = planSettlement(
      input({
        result: { ...failed, statusCode: 0, error: "connect ECONNREFUSED" },
        verdict: "retryable",
        phase: "fallback",
        phaseAttempts: 3,
        webhook: { ...input().webhook, fallbackUrl: "https://fallback.example" },
      }),
    );
    expect(plan.event).toMatchObject({ status: "failed", lastError: "connect ECONNREFUSED" });
    expect(plan.primaryOutcome).toBeUndefined();
  });
});
