/**
 * An upper bound of the RE2 program a pattern compiles to, read from its text without compiling
 * it: counted repetition copies its operand (`\w{1000}` is a thousand instructions), and
 * compiling costs about 1 µs per instruction, so a 1,000-character pattern can take 100 ms and
 * more to compile. Every atom counts one (a character class too), a group its contents plus
 * two, `*` `+` `?` double their operand, `{n,m}` makes n copies of it and m - n optional ones
 * (plus a split each; `{n,}` counts as `{n,n+1}`). It stays above the real size (tested against RE2's own count);
 * RE2 remains the judge of what is valid.
 */
export function estimatePatternSize(source: string): number {
  // Sizes of the open groups; the last is where atoms are added.
  const sums: number[] = [0];
  let index = 0;
  while (index < source.length) {
    const ch = source[index];
    let atom = 1;
    if (ch === "(") {
      sums.push(0);
      index = groupBodyStart(source, index);
      continue;
    }
    if (ch === ")") {
      atom = (sums.length > 1 ? (sums.pop() as number) : 0) + 2;
      index++;
    } else if (ch === "\\") {
      index = escapeEnd(source, index);
    } else if (ch === "[") {
      index = classEnd(source, index);
    } else {
      index++;
    }
    const quantifier = readQuantifier(source, index);
    index += quantifier.length;
    sums[sums.length - 1] = (sums[sums.length - 1] as number) + quantifier.size(atom);
  }
  return sums.reduce((total, sum) => total + sum, 3);
}

/** Index after `(`, `(?:`, `(?<name>`, `(?=`, `(?!`, `(?<=` or `(?<!`. */
function groupBodyStart(source: string, open: number): number {
  if (source[open + 1] !== "?") return open + 1;
  const kind = source[open + 2];
  if (kind === "<" && source[open + 3] !== "=" && source[open + 3] !== "!") {
    const close = source.indexOf(">", open + 3);
    return close < 0 ? source.length : close + 1;
  }
  return kind === "<" ? open + 4 : open + 3;
}

/** Index after an escape: `\p{…}` `\P{…}` `\u{…}` `\x{…}` `\k<…>`, `\uXXXX`, `\xHH`, `\c`. */
function escapeEnd(source: string, start: number): number {
  const kind = source[start + 1];
  if (kind === undefined) return start + 1;
  if ("pPux".includes(kind) && source[start + 2] === "{") {
    const close = source.indexOf("}", start + 3);
    return close < 0 ? source.length : close + 1;
  }
  if (kind === "k" && source[start + 2] === "<") {
    const close = source.indexOf(">", start + 3);
    return close < 0 ? source.length : close + 1;
  }
  if (kind === "u") return Math.min(source.length, start + 6);
  if (kind === "x") return Math.min(source.length, start + 4);
  if (kind === "c") return Math.min(source.length, start + 3);
  return start + 2;
}

/** Index after a character class (escapes inside it skipped). */
function classEnd(source: string, start: number): number {
  let index = start + 1;
  while (index < source.length) {
    const ch = source[index];
    if (ch === "\\") index += 2;
    else if (ch === "]") return index + 1;
    else index++;
  }
  return source.length;
}

const COUNTED = /^\{(\d+)(?:(,)(\d*))?\}\??/;

/**
 * The quantifier at `index`, if any: its length and the size of its operand repeated. A copy
 * beyond a count's minimum is optional: its operand plus a split.
 */
function readQuantifier(
  source: string,
  index: number,
): { length: number; size: (atom: number) => number } {
  const ch = source[index];
  if (ch === "*" || ch === "+" || ch === "?") {
    const lazy = source[index + 1] === "?" ? 1 : 0;
    return { length: 1 + lazy, size: (atom) => atom * 2 + 1 };
  }
  const none = { length: 0, size: (atom: number) => atom };
  if (ch !== "{") return none;
  const counted = COUNTED.exec(source.slice(index, index + 24));
  if (!counted) return none;
  const low = Number(counted[1]);
  const open = counted[2] !== undefined && counted[3] === "";
  const high = counted[2] === undefined ? low : open ? low + 1 : Number(counted[3]);
  return {
    length: counted[0].length,
    size: (atom) => low * atom + Math.max(0, high - low) * (atom + 1) + 1,
  };
}
