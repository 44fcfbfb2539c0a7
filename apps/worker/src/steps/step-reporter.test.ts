import { StepMessage } from "@hookflow/pipeline";
import type { SendOptions, StepPublisher } from "@hookflow/queue";
import { createStepReporter, EXPEDITE_MS, STEP_PAYLOAD_LIMIT_BYTES } from "./step-reporter.js";

/** A publisher that records what it was given (the reporter's only dependency). */
function recordingPublisher() {
  const sent: Array<{ eventId: string; kind: string; urgent: boolean }> = [];
  const messages: StepMessage[] = [];
  const publisher: StepPublisher = {
    publish: async () => 0,
    send: (eventId: string, message: StepMessage, options?: SendOptions) => {
      sent.push({ eventId, kind: message.kind, urgent: options?.urgent === true });
    },
    sendJson: (eventId: string, json: string, options?: SendOptions) => {
      const message = StepMessage.parse(JSON.parse(json));
      sent.push({ eventId, kind: message.kind, urgent: options?.urgent === true });
      messages.push(message);
    },
    idle: async () => {},
  };
  return { publisher, sent, messages };
}

const step = { nodeType: "delivery", nodeId: "wh_1", status: "running" } as const;

describe("step reporter", () => {
  it("gathers messages of an ordinary event (not urgent)", () => {
    const { publisher, sent } = recordingPublisher();
    const reporter = createStepReporter({ publisher, now: () => new Date() });
    reporter.step("evt_a", step);
    reporter.done("evt_a", { deliveryStatus: "delivered" });
    expect(sent.map((s) => s.urgent)).toEqual([false, false]);
  });

  it("sends an expedited event's messages urgently until its done", () => {
    const { publisher, sent } = recordingPublisher();
    const reporter = createStepReporter({ publisher, now: () => new Date() });
    reporter.expedite("evt_s");
    reporter.step("evt_s", step);
    reporter.step("evt_other", step);
    reporter.done("evt_s", { deliveryStatus: "delivered" });
    // A retry of the same event later is no longer expedited unless marked again.
    reporter.step("evt_s", step);
    expect(sent).toEqual([
      { eventId: "evt_s", kind: "step", urgent: true },
      { eventId: "evt_other", kind: "step", urgent: false },
      { eventId: "evt_s", kind: "done", urgent: true },
      { eventId: "evt_s", kind: "step", urgent: false },
    ]);
  });

  it("stops expediting at parked, and forgets an event after EXPEDITE_MS", () => {
    let clock = 1_000_000;
    const { publisher, sent } = recordingPublisher();
    const reporter = createStepReporter({ publisher, now: () => new Date(clock) });
    reporter.expedite("evt_p");
    reporter.parked("evt_p", { awaitingApproval: true });
    reporter.step("evt_p", step);
    reporter.expedite("evt_old");
    clock += EXPEDITE_MS + 1;
    reporter.step("evt_old", step);
    expect(sent.map((s) => [s.eventId, s.kind, s.urgent])).toEqual([
      ["evt_p", "parked", true],
      ["evt_p", "step", false],
      ["evt_old", "step", false],
    ]);
  });

  it("streams a node's output as lastPayload, or a size marker past the limit", () => {
    const { publisher, messages } = recordingPublisher();
    const reporter = createStepReporter({ publisher, now: () => new Date(0) });
    const output = { orderId: "o-1", note: 'quote " and \u00e9' };
    reporter.step("evt_a", { ...step, status: "success", durationMs: 2, lastPayload: output });
    reporter.step("evt_a", {
      ...step,
      status: "success",
      lastPayload: { big: "x".repeat(STEP_PAYLOAD_LIMIT_BYTES) },
    });
    reporter.step("evt_a", { ...step, status: "error", error: "boom" });
    expect(messages).toEqual([
      {
        kind: "step",
        step: {
          eventId: "evt_a",
          ...step,
          status: "success",
          durationMs: 2,
          lastPayload: output,
          at: new Date(0).toISOString(),
        },
      },
      {
        kind: "step",
        step: expect.objectContaining({
          lastPayload: { truncated: true, bytes: STEP_PAYLOAD_LIMIT_BYTES + 10 },
        }),
      },
      {
        kind: "step",
        step: { eventId: "evt_a", ...step, status: "error", error: "boom", at: expect.any(String) },
      },
    ]);
  });
});
