import {
  boundedPayloadJson,
  payloadJson,
  rememberPayloadJson,
  stringifyWithRaw,
} from "./payload-json.js";

describe("payload JSON", () => {
  it("serializes a payload once and reuses the text", () => {
    const payload = { a: 1, b: [true, null] };
    const first = payloadJson(payload);
    expect(first).toBe('{"a":1,"b":[true,null]}');
    expect(payloadJson(payload)).toBe(first);
  });

  it("uses the text it was given for a parsed output", () => {
    const text = '{ "spaced" : 1 }';
    const parsed = JSON.parse(text) as unknown;
    rememberPayloadJson(parsed, text);
    expect(payloadJson(parsed)).toBe(text);
  });

  it("serializes primitives and strings without caching them", () => {
    expect(payloadJson("x")).toBe('"x"');
    expect(payloadJson(3)).toBe("3");
    expect(payloadJson(null)).toBe("null");
    expect(payloadJson(undefined)).toBeUndefined();
  });

  it("replaces a payload above the limit by a size marker, counting UTF-8 bytes", () => {
    expect(boundedPayloadJson({ s: "abc" }, 100)).toBe('{"s":"abc"}');
    const wide = { s: "é".repeat(40) };
    // 40 two-byte characters + 8 bytes of syntax = 88 bytes.
    expect(boundedPayloadJson(wide, 88)).toBe(JSON.stringify(wide));
    expect(boundedPayloadJson(wide, 87)).toBe('{"truncated":true,"bytes":88}');
  });

  it("splices raw JSON in as the last property", () => {
    expect(stringifyWithRaw({ a: 1 }, "p", '{"x":[1]}')).toBe('{"a":1,"p":{"x":[1]}}');
    expect(stringifyWithRaw({}, "p", "2")).toBe('{"p":2}');
    expect(stringifyWithRaw({ a: 1 }, "p", undefined)).toBe('{"a":1}');
    expect(JSON.parse(stringifyWithRaw({ a: 'q"' }, "p", '"s"'))).toEqual({ a: 'q"', p: "s" });
  });
});
