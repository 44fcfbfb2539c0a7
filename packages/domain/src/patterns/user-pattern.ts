import { RE2JS } from "re2js";
import { estimatePatternSize } from "./pattern-size.js";

/**
 * Regular expressions written by users (schema-validator `pattern`s) run on RE2JS, a linear-time
 * engine (no backtracking, so no catastrophic patterns), never on the JavaScript engine's own.
 * A pattern must be valid JavaScript (`u` flag) syntax, as JSON Schema patterns are, and must
 * compile on RE2: lookarounds and back-references are refused. `\uXXXX`, `\u{…}` and named
 * groups are accepted (translated to RE2's spelling). Matching follows RE2, so `\s` and `.` are
 * ASCII-minded (see docs/decisions.md).
 */

export const MAX_PATTERN_LENGTH = 1000;
/** Estimated RE2 instructions of one pattern (compiling costs about 1 µs per instruction). */
export const MAX_PATTERN_SIZE = 2000;
/** Estimated RE2 instructions of all the patterns of one node. */
export const MAX_NODE_PATTERN_SIZE = 20_000;

export interface UserPattern {
  source: string;
  /** RE2 program size: what one input character can cost at worst, in instructions. */
  size: number;
  /** Unanchored search, like `RegExp.prototype.test`. */
  test(value: string): boolean;
}

export type UserPatternResult = { ok: true; pattern: UserPattern } | { ok: false; error: string };

/** Why a pattern cannot run, or null when it compiles (write-time check). */
export function userPatternProblem(source: string): string | null {
  const compiled = compileUserPattern(source);
  return compiled.ok ? null : compiled.error;
}

export function compileUserPattern(source: string): UserPatternResult {
  if (source.length > MAX_PATTERN_LENGTH) {
    return { ok: false, error: `longer than ${MAX_PATTERN_LENGTH} characters` };
  }
  try {
    new RegExp(source, "u");
  } catch (error) {
    return { ok: false, error: `invalid regular expression: ${describe(error)}` };
  }
  const estimate = estimatePatternSize(source);
  if (estimate > MAX_PATTERN_SIZE) {
    return {
      ok: false,
      error: `too large for the linear-time engine (about ${estimate} instructions, at most ${MAX_PATTERN_SIZE}; lower the repetition counts)`,
    };
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    return {
      ok: false,
      error: `not supported by the linear-time engine (RE2 syntax: no lookarounds or back-references): ${describe(error)}`,
    };
  }
  return {
    ok: true,
    pattern: { source, size: compiled.programSize(), test: (value) => compiled.test(value) },
  };
}

/**
 * Upper bound of what matching `value` against `pattern` costs, in work units of about 0.1 µs
 * (measured worst case: RE2JS's lazy DFA thrashing on a pattern built to defeat it, where each
 * input character costs about one unit per instruction plus a fixed part).
 */
export function patternMatchCost(pattern: UserPattern, value: string): number {
  return (value.length + 1) * (pattern.size + 30);
}

/** Compiling costs about ten work units per instruction. */
export function patternCompileCost(source: string): number {
  return estimatePatternSize(source) * 10;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/^Invalid regular expression: /, "")
    .replace(/\s+/g, " ")
    .trim();
}
