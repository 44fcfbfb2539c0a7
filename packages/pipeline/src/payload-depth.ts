/**
 * How deep a payload may nest (objects and arrays inside each other) to go through the node
 * graph. Serializing a value takes stack per level (JSON.stringify gives up past about 4,000
 * levels, fewer when called deep in a stack), and the graph serializes payloads at many points
 * (transform inputs and outputs, steps, parks, merges, forwarded events). A limit well below that
 * keeps every one of them safe; real webhook payloads nest a few dozen levels at most.
 */
export const MAX_PAYLOAD_DEPTH = 1000;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACKET = 91;
const OPEN_BRACE = 123;
const CLOSE_BRACKET = 93;
const CLOSE_BRACE = 125;

/**
 * Whether JSON text nests deeper than `limit` levels (`[]` is one level). Cheap for the usual
 * payload: a text of n characters nests at most n / 2 levels, and a text with at most `limit`
 * opening brackets and braces (counted with `indexOf`, about a tenth of a character-by-character
 * scan) no deeper than that; only a text past both is scanned.
 */
export function jsonTextNestsDeeperThan(text: string, limit: number): boolean {
  if (text.length <= 2 * limit || openersAtMost(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      depth++;
      if (depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth--;
    }
  }
  return false;
}

/** Whether the text holds at most `limit` of `[` and `{` together (inside strings or not). */
function openersAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const opener of ["[", "{"]) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) {
      count++;
      if (count > limit) return false;
    }
  }
  return true;
}

/** Whether a parsed JSON value nests deeper than `limit` levels (no recursion, so any depth). */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const current = item.value;
    if (typeof current !== "object" || current === null) continue;
    const depth = item.depth + 1;
    if (depth > limit) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth });
    }
  }
  return false;
}
