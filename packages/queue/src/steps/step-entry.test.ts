import { parseStepEntry, peekEventId } from "./step-entry.js";

const step = {
  kind: "step",
  step: { eventId: "evt_1", nodeType: "delivery", nodeId: "wh_1", status: "running", at: "t" },
};

describe("peekEventId", () => {
  it.each<[string, string | null]>([
    [`{"seq":3,"eventId":"evt_01ABC","message":{}}`, "evt_01ABC"],
    [`{"seq":12,"eventId":"a\\"b","message":{}}`, 'a"b'],
    [`{"eventId":"evt_1","seq":3}`, null],
    ["not json", null],
  ])("reads the event id of %j without parsing the rest", (raw, expected) => {
    expect(peekEventId(raw)).toBe(expected);
  });
});

describe("parseStepEntry", () => {
  it("parses an entry holding a valid step message", () => {
    const raw = JSON.stringify({ seq: 1, eventId: "evt_1", message: step });
    expect(parseStepEntry(raw)).toEqual({ seq: 1, eventId: "evt_1", message: step });
  });

  it.each([
    ["invalid JSON", "{"],
    ["a sequence number of zero", JSON.stringify({ seq: 0, eventId: "evt_1", message: step })],
    ["an unknown message kind", JSON.stringify({ seq: 1, eventId: "e", message: { kind: "x" } })],
  ])("returns null for %s", (_, raw) => {
    expect(parseStepEntry(raw)).toBeNull();
  });
});
