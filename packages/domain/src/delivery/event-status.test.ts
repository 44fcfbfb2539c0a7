import { EVENT_STATUSES, eventTypeOf, FINAL_STATUSES, OPEN_STATUSES } from "./event-status.js";

describe("event statuses", () => {
  it("are each either final or open, never both", () => {
    expect([...FINAL_STATUSES, ...OPEN_STATUSES].sort()).toEqual([...EVENT_STATUSES].sort());
    expect([...FINAL_STATUSES].sort()).toEqual(["cancelled", "delivered", "failed", "filtered"]);
  });
});

describe("eventTypeOf", () => {
  it.each([
    [{ type: "order.created", event: "x" }, "order.created"],
    [{ event: "push" }, "push"],
    [{ type: 5, event: "push" }, "push"],
    [{ type: null }, null],
    [{ data: { type: "nested" } }, null],
    [[{ type: "in-array" }], null],
    ["order.created", null],
    [null, null],
    [42, null],
  ])("reads the type of %j as %j", (payload, expected) => {
    expect(eventTypeOf(payload)).toBe(expected);
  });
});
