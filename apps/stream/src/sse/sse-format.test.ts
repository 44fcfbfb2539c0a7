import { formatSseMessage, parseLastEventId } from "./sse-format.js";

describe("formatSseMessage", () => {
  it("writes the event, the id and one data line of JSON, ended by a blank line", () => {
    expect(formatSseMessage("step", { a: "line\nbreak" }, 7)).toBe(
      'event: step\nid: 7\ndata: {"a":"line\\nbreak"}\n\n',
    );
  });

  it("leaves the id out when there is none", () => {
    expect(formatSseMessage("timeout", { eventId: "evt_1" })).toBe(
      'event: timeout\ndata: {"eventId":"evt_1"}\n\n',
    );
  });
});

describe("parseLastEventId", () => {
  it.each<[string | undefined, number]>([
    ["12", 12],
    [" 3 ", 3],
    ["0", 0],
    [undefined, 0],
    ["", 0],
    ["-1", 0],
    ["1.5", 0],
    ["abc", 0],
    ["9999999999999999999", 0],
  ])("reads %j as %d", (value, expected) => {
    expect(parseLastEventId(value)).toBe(expected);
  });
});
