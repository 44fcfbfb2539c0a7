import { rememberPayloadJson } from "./payload-json.js";
import { stepJson } from "./step-json.js";

describe("stepJson", () => {
  it("writes a step once, with its event id first and its payload's own text last", () => {
    const payload = { a: 1 };
    rememberPayloadJson(payload, '{"a": 1}');
    const step = {
      nodeType: "transform",
      nodeId: "trn_1",
      nodeName: "reshape",
      status: "success" as const,
      durationMs: 1.23456,
      lastPayload: payload,
      at: "2030-01-01T00:00:00.000Z",
    };
    const text = stepJson("evt_1", step, 1024);
    expect(text).toBe(
      '{"eventId":"evt_1","nodeType":"transform","nodeId":"trn_1","nodeName":"reshape","status":"success","durationMs":1.235,"at":"2030-01-01T00:00:00.000Z","lastPayload":{"a": 1}}',
    );
    // Written once: the same step object gives the first text, whatever changed on it since.
    step.nodeName = "renamed";
    expect(stepJson("evt_1", step, 1024)).toBe(text);
  });

  it("writes a marker instead of a payload above the limit, and steps without one as they are", () => {
    const big = { text: "x".repeat(100) };
    const step = {
      nodeType: "transform",
      nodeId: "t",
      status: "success" as const,
      lastPayload: big,
      at: "a",
    };
    expect(JSON.parse(stepJson("e", step, 50)).lastPayload).toEqual({
      truncated: true,
      bytes: JSON.stringify(big).length,
    });
    const running = { nodeType: "filter", nodeId: "f", status: "running" as const, at: "a" };
    expect(JSON.parse(stepJson("e", running, 50))).toEqual({ eventId: "e", ...running });
  });
});
