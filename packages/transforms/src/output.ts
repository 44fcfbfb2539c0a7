/** Byte length of a string as UTF-8, counted only when it could exceed `limit`. */
export function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text, "utf8") > limit;
}

/** Rendered text is the output as JSON when it parses as JSON, else the text itself. */
export function parseRenderedOutput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function outputTooLargeMessage(limit: number): string {
  return `transform output exceeds the ${limit}-byte limit`;
}
