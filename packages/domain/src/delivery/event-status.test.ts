import {
  canTransition,
  EVENT_STATUSES,
  type EventStatus,
  eventTypeOf,
  FINAL_STATUSES,
  isFinalStatus,
} from "./event-status.js";

describe("canTransition", () => {
  const allowed: Array<[EventStatus, EventStatus]> = [
    ["pending", "filtered"],
    ["pending", "delivered"],
    ["pending", "retrying"],
    ["pending", "failed"],
    ["pending", "cancelled"],
    ["retrying", "delivered"],
    ["retrying", "retrying"],
    ["retrying", "failed"],
    ["retrying", "cancelled"],
    ["delivered", "pending"],
    ["failed", "pending"],
    ["filtered", "pending"],
    ["cancelled", "pending"],
  ];
  const allPairs = EVENT_STATUSES.flatMap((from) =>
    EVENT_STATUSES.map((to) => [from, to] as const),
  );

  it.each(allPairs)("answers %s -> %s per the lifecycle table", (from, to) => {
    const expected = allowed.some(([a, b]) => a === from && b === to);
    expect(canTransition(from, to)).toBe(expected);
  });

  it("lists exactly the four final statuses", () => {
    expect([...FINAL_STATUSES].sort()).toEqual(["cancelled", "delivered", "failed", "filtered"]);
    expect(isFinalStatus("retrying")).toBe(false);
    expect(isFinalStatus("filtered")).toBe(true);
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
