import {
  compileUserPattern,
  patternCompileCost,
  patternMatchCost,
  type UserPatternResult,
} from "@hookflow/domain";
import type { PatternCheck } from "./schema-validator.js";

/**
 * Work units (about 0.1 µs each at worst) one validator run may spend matching patterns on the
 * calling thread: about 2 ms. Checks beyond it go to the pattern port, off the event loop.
 */
export const INLINE_PATTERN_BUDGET = 20_000;

const CACHE_MAX = 1000;
/** Compiled patterns by source, shared by every run of the process (a memo: same source, same result). */
const compiledPatterns = new Map<string, UserPatternResult>();

export interface InlinePatterns {
  /**
   * Tests `value` against `source` on the calling thread when its cost fits what is left of the
   * budget: true or false, or the reason the pattern cannot run. Otherwise the check is deferred
   * and its index in `deferred` is returned.
   */
  test(source: string, value: string): boolean | string | number;
  deferred: PatternCheck[];
}

export function createInlinePatterns(budget = INLINE_PATTERN_BUDGET): InlinePatterns {
  let left = budget;
  const deferred: PatternCheck[] = [];
  return {
    deferred,
    test(source, value) {
      let compiled = compiledPatterns.get(source);
      if (!compiled) {
        const compileCost = patternCompileCost(source);
        if (compileCost > left) return deferred.push({ source, value }) - 1;
        left -= compileCost;
        compiled = compileUserPattern(source);
        if (compiledPatterns.size >= CACHE_MAX) compiledPatterns.clear();
        compiledPatterns.set(source, compiled);
      }
      if (!compiled.ok) return compiled.error;
      const cost = patternMatchCost(compiled.pattern, value);
      if (cost > left) return deferred.push({ source, value }) - 1;
      left -= cost;
      return compiled.pattern.test(value);
    },
  };
}
