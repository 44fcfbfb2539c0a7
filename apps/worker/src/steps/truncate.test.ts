import { truncateUtf8 } from "./truncate.js";

describe("truncateUtf8", () => {
  it.each<[string, string, number, string]>([
    ["keeps a short text", "hello", 10, "hello"],
    ["cuts ASCII at the limit", "abcdef", 4, "abcd"],
    ["never splits a two-byte character", "aé", 2, "a"],
    ["never splits a four-byte character", "ab😀", 5, "ab"],
    ["keeps a character that ends at the limit", "aé", 3, "aé"],
  ])("%s", (_, text, max, expected) => {
    expect(truncateUtf8(text, max)).toBe(expected);
    expect(Buffer.byteLength(truncateUtf8(text, max))).toBeLessThanOrEqual(max);
  });
});
