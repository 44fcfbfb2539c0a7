import { estimatePatternSize } from "./pattern-size.js";
import { compileUserPattern, MAX_PATTERN_SIZE, patternMatchCost } from "./user-pattern.js";

function compiled(source: string) {
  const result = compileUserPattern(source);
  if (!result.ok) throw new Error(result.error);
  return result.pattern;
}

describe("compileUserPattern", () => {
  it.each<[string, string, boolean]>([
    ["^[A-Z]{3}-\\d{4}$", "ABC-1234", true],
    ["^[A-Z]{3}-\\d{4}$", "ABC-12345", false],
    ["b+", "abbbc", true],
    ["^(pending|paid)$", "paid", true],
    ["^\\u00e9+$", "ééé", true],
    ["^\\u{1F600}$", "😀", true],
    ["^(?<year>\\d{4})-\\d{2}$", "2026-11", true],
    ["^.$", "😀", true],
  ])("matches %s against %s -> %s", (source, value, expected) => {
    expect(compiled(source).test(value)).toBe(expected);
  });

  it("answers the attack patterns in linear time", () => {
    // A backtracking engine takes seconds on each of these (and exponentially more per character).
    expect(compiled("^(a|a)*$").test(`${"a".repeat(100_000)}!`)).toBe(false);
    expect(compiled("a*a*a*a*a*b").test("a".repeat(100_000))).toBe(false);
    expect(compiled("^(a+)+$").test(`${"a".repeat(100_000)}!`)).toBe(false);
  });

  it.each<[string, RegExp]>([
    ["(", /invalid regular expression/],
    ["a(?=b)", /not supported by the linear-time engine/],
    ["(?<!a)b", /not supported by the linear-time engine/],
    ["(a)\\1", /not supported by the linear-time engine/],
    ["\\w{1000}\\w{1000}\\w{1000}", /too large for the linear-time engine/],
    ["((a{10}){10}){10}x{900}", /too large/],
    ["x".repeat(1001), /longer than 1000 characters/],
  ])("refuses %s", (source, message) => {
    const result = compileUserPattern(source);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toMatch(message);
  });

  it("prices a match by input length and program size", () => {
    const small = compiled("^a+$");
    const large = compiled("a[ab]{200}c");
    expect(patternMatchCost(large, "ab")).toBeGreaterThan(patternMatchCost(small, "ab"));
    expect(patternMatchCost(small, "a".repeat(1000))).toBeGreaterThan(patternMatchCost(small, "a"));
  });
});

describe("estimatePatternSize", () => {
  it.each([
    "^[A-Z]{3}-\\d{4}$",
    "\\w{1000}",
    "\\w{1,900}",
    "(?:ab){2,300}c{3,}",
    "(?:a|b|c){100}",
    "((a{10}){10}){10}",
    "(?:\\p{L}|\\u{41}){50}[a-z]{20,40}",
    "[{}()]{5}\\{3\\}(x)*",
    "^(?<y>\\d{4})-(?:\\d{2}){1,2}$",
  ])("is never below RE2's program size for %s", (source) => {
    expect(estimatePatternSize(source)).toBeGreaterThanOrEqual(compiled(source).size);
  });

  it("keeps ordinary patterns far below the limit", () => {
    expect(estimatePatternSize("^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$")).toBeLessThan(
      MAX_PATTERN_SIZE / 20,
    );
  });
});
