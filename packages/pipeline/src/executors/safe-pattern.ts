/**
 * User patterns run on the worker's event loop, so a pattern that backtracks exponentially
 * (`(a+)+$`, `(\w*)*x`) could stall every event. This conservative check refuses a group that is
 * repeated without bound (`*`, `+`, `{n,}`, or 10+ times) when the group itself contains an unbounded
 * repetition or a back-reference; such patterns are reported as a validation error instead of
 * being run. Ordinary patterns (anchors, classes, bounded counts, alternations) pass.
 */
export function isSafePattern(source: string): boolean {
  // For each open group: does its body hold an unbounded quantifier or a back-reference?
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      const next = source[i + 1] ?? "";
      if (!inClass && /[1-9k]/.test(next) && stack.length > 0) stack[stack.length - 1] = true;
      i += 1;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      continue;
    }
    if (ch === "(") {
      stack.push(false);
      continue;
    }
    const unbounded = unboundedQuantifierAt(source, i);
    if (ch === ")") {
      const risky = stack.pop() ?? false;
      const repeated = unboundedQuantifierAt(source, i + 1);
      if (risky && repeated) return false;
      // A repeated or risky group makes its enclosing group risky too.
      if ((risky || repeated) && stack.length > 0) stack[stack.length - 1] = true;
      continue;
    }
    if (unbounded && stack.length > 0) stack[stack.length - 1] = true;
  }
  return true;
}

/** True when a quantifier that repeats without bound, or 10+ times, starts at `index`. */
function unboundedQuantifierAt(source: string, index: number): boolean {
  const ch = source[index];
  if (ch === "*" || ch === "+") return true;
  if (ch !== "{") return false;
  const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(index, index + 24));
  if (!m) return false;
  if (m[2] === undefined) return Number(m[1]) >= 10;
  return m[3] === "" || Number(m[3]) >= 10;
}
