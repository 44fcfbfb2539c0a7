import {
  jsonTextNestsDeeperThan,
  MAX_PAYLOAD_DEPTH,
  valueNestsDeeperThan,
} from "./payload-depth.js";

const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

describe("payload depth", () => {
  it.each([
    ["arrays", arrays],
    ["objects", objects],
  ])("counts nested %s, in text and as values, up to and past the limit", (_name, nest) => {
    for (const [depth, deeper] of [
      [3, false],
      [4, true],
    ] as const) {
      const text = nest(depth).padEnd(40, " ");
      expect(jsonTextNestsDeeperThan(text, 3)).toBe(deeper);
      expect(valueNestsDeeperThan(JSON.parse(text), 3)).toBe(deeper);
    }
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ a: '[[[[{{{{ "\\" [[[[', b: ["[", "{"] });
    expect(jsonTextNestsDeeperThan(text, 2)).toBe(false);
    expect(jsonTextNestsDeeperThan(JSON.stringify([[['x"]]]"[[[']]]), 2)).toBe(true);
  });

  it("finds a deep text among many shallow brackets, and shallow text full of brackets", () => {
    const wide = JSON.stringify(Array.from({ length: 50 }, () => [[{}]]));
    expect(jsonTextNestsDeeperThan(wide, 4)).toBe(false);
    expect(jsonTextNestsDeeperThan(`[${wide},${arrays(4)}]`, 4)).toBe(true);
    expect(jsonTextNestsDeeperThan(JSON.stringify({ s: "[{".repeat(100) }), 3)).toBe(false);
  });

  it("never scans a text too short to nest past the limit", () => {
    // Not JSON, but 2 × limit characters cannot hold more than `limit` levels of valid JSON.
    expect(jsonTextNestsDeeperThan("[".repeat(2 * MAX_PAYLOAD_DEPTH), MAX_PAYLOAD_DEPTH)).toBe(
      false,
    );
    expect(jsonTextNestsDeeperThan(arrays(MAX_PAYLOAD_DEPTH + 1), MAX_PAYLOAD_DEPTH)).toBe(true);
  });

  it("walks values of any depth without recursion, scalars at depth 0", () => {
    expect(valueNestsDeeperThan(JSON.parse(arrays(200_000)), MAX_PAYLOAD_DEPTH)).toBe(true);
    expect(valueNestsDeeperThan("[[[[", 0)).toBe(false);
    expect(valueNestsDeeperThan(null, 0)).toBe(false);
    expect(valueNestsDeeperThan({}, 0)).toBe(true);
    expect(valueNestsDeeperThan({ a: [1, { b: [] }] }, 4)).toBe(false);
    expect(valueNestsDeeperThan({ a: [1, { b: [[]] }] }, 4)).toBe(true);
  });
});
