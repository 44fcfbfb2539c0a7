import type { PipelineDone, PipelineStep } from "@hookflow/queue";
import { syncResponseOf } from "./sync-response.js";

const step: PipelineStep = {
  eventId: "evt_1",
  nodeType: "schemaValidator",
  nodeId: "sv_1",
  status: "error",
  error: "amount: required",
  at: "2026-01-01T00:00:00.000Z",
};

function done(
  status: PipelineDone["status"],
  deliveryStatus: PipelineDone["body"]["deliveryStatus"],
) {
  return {
    kind: "done" as const,
    steps: [step],
    done: {
      eventId: "evt_1",
      status,
      body: { deliveryStatus, statusCode: 0, latencyMs: 0 },
      response: "ok",
    },
  };
}

describe("syncResponseOf", () => {
  it.each([
    ["delivered", 200, "delivered"],
    ["filtered", 200, "filtered"],
    ["cancelled", 200, "cancelled"],
    ["failed validation", 422, "failed"],
    ["failed delivery", 502, "failed"],
  ] as const)(
    "answers a pipeline that ended %s with syncStatus %d",
    (_, status, deliveryStatus) => {
      expect(syncResponseOf("evt_1", "tok", done(status, deliveryStatus))).toEqual({
        eventId: "evt_1",
        syncStatus: status,
        steps: [step],
        response: "ok",
        streamToken: "tok",
      });
    },
  );

  it("answers 408 when the wait ran out, without a response", () => {
    expect(syncResponseOf("evt_1", "tok", { kind: "timeout", steps: [] })).toEqual({
      eventId: "evt_1",
      syncStatus: 408,
      steps: [],
      streamToken: "tok",
    });
  });

  it("answers 202 without steps for an event held by an inactive webhook", () => {
    expect(syncResponseOf("evt_1", "tok", { kind: "held", steps: [] })).toEqual({
      eventId: "evt_1",
      syncStatus: 202,
      steps: [],
      streamToken: "tok",
    });
  });

  it("answers a parked event with its flag and 202", () => {
    const outcome = {
      kind: "parked" as const,
      steps: [],
      parked: { eventId: "evt_1", awaitingApproval: true, delayed: false },
    };
    expect(syncResponseOf("evt_1", "tok", outcome)).toEqual({
      eventId: "evt_1",
      syncStatus: 202,
      steps: [],
      awaitingApproval: true,
      streamToken: "tok",
    });
  });

  it("cuts the response to 4 KB without splitting a character", () => {
    const outcome = done(200, "delivered");
    outcome.done.response = `a${"é".repeat(3000)}`;
    const body = syncResponseOf("evt_1", "tok", outcome);
    expect(Buffer.byteLength(body.response ?? "")).toBe(4095);
    expect(body.response).toBe(`a${"é".repeat(2047)}`);
  });
});
