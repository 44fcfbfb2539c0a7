import { chainHeadersOf, originalOf, previousBody } from "./chain-payload.js";

describe("chain payload", () => {
  it("parses a JSON response body and keeps other text as text", () => {
    expect(previousBody('{"ok":true}')).toEqual({ ok: true });
    expect(previousBody("plain text")).toBe("plain text");
    expect(previousBody("")).toBeNull();
    expect(previousBody("[1, 2")).toBe("[1, 2");
  });

  it("takes the origin's payload for step 1 and the carried original afterwards", () => {
    expect(originalOf('{"a":1}', null)).toEqual({ a: 1 });
    expect(originalOf('{"original":{"a":1},"previous":{}}', 1)).toEqual({ a: 1 });
    expect(originalOf("[1]", 2)).toBeNull();
    expect(originalOf("not json", null)).toBe("not json");
  });

  it("reads the chain headers' values from a step's raw body", () => {
    const raw = JSON.stringify({ original: { a: 1 }, previous: { statusCode: 200, body: "x" } });
    expect(chainHeadersOf(raw, 2)).toEqual({
      step: 2,
      original: { a: 1 },
      previous: { statusCode: 200, body: "x" },
    });
    expect(chainHeadersOf("not json", 1)).toEqual({ step: 1, original: null, previous: null });
  });
});
