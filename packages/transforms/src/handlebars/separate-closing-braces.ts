/** Inserted between a mustache and a literal `}` so the lexer does not read `}}}` as one token. */
const SEPARATOR = "{{!}}";

/**
 * JSON templates naturally end a value with a mustache followed by `}`: `{"n": {{n}}}`. The
 * Handlebars lexer reads that `}}}` as the close of a triple-stash and fails. This inserts an
 * empty comment after such a mustache (`{{n}}{{!}}}`), which renders nothing, so the template
 * means what it says. Escaped mustaches, comments, raw blocks and string literals are skipped.
 */
export function separateClosingBraces(source: string): string {
  let out = "";
  let from = 0;
  let search = 0;
  for (;;) {
    const open = source.indexOf("{{", search);
    if (open < 0) break;
    if (isEscaped(source, open)) {
      search = open + 2;
      continue;
    }
    const braces = countRun(source, open, "{");
    const afterOpen = open + braces;
    const strip = source[afterOpen] === "~" ? 1 : 0;
    const marker = source[afterOpen + strip];
    if (braces >= 4) {
      search = afterOpen;
      continue;
    }
    if (marker === "!") {
      const long = source.startsWith("--", afterOpen + strip + 1);
      const rest = source.slice(afterOpen + strip + 1);
      const match = (long ? /--~?\}\}/ : /\}\}/).exec(rest);
      if (!match) break;
      search = afterOpen + strip + 1 + match.index + match[0].length;
      continue;
    }
    const closeLength = braces === 3 ? 3 : 2;
    const close = findClose(source, afterOpen, closeLength);
    if (close < 0) break;
    const end = close + closeLength;
    if (source[end] === "}") {
      out += source.slice(from, end) + SEPARATOR;
      from = end;
    }
    search = end;
  }
  return out + source.slice(from);
}

function isEscaped(source: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && source[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

function countRun(source: string, index: number, char: string): number {
  let count = 0;
  while (source[index + count] === char) count++;
  return count;
}

/** Index of the closing braces of a mustache, skipping string literals and `[segment]`s. */
function findClose(source: string, from: number, closeLength: number): number {
  const close = "}".repeat(closeLength);
  for (let i = from; i < source.length; i++) {
    const char = source[i];
    if (char === '"' || char === "'") {
      i = skipQuoted(source, i, char);
    } else if (char === "[") {
      const end = source.indexOf("]", i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (source.startsWith(close, i)) {
      return i;
    }
  }
  return -1;
}

function skipQuoted(source: string, start: number, quote: string): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === quote) return i;
  }
  return source.length;
}
