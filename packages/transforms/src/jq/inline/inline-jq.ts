// jq programs on the calling thread, without a thread hop or jq's WebAssembly: a subset of jq
// compiled to closures (parser.ts, compile.ts, builtins.ts) for the programs webhooks usually
// carry (paths, object construction, map/select, arithmetic, string building). jq itself stays
// the authority: a program outside the subset, an input whose JSON text jq would read with a
// meaning JavaScript loses, any error, and any run past its work budget go to jq-wasm on its
// threads (which enforces the time limit), so an inline answer is always jq's answer.
import { createLruCache } from "../../lru-cache.js";
import type { TransformOutcome } from "../../types.js";
import { setTextCheck } from "./builtins.js";
import { type CompiledProgram, compileProgram } from "./compile.js";
import { parseJq } from "./parser.js";
import { startRun, takeFirst } from "./runtime.js";
import type { Json } from "./values.js";

export interface InlineJqOptions {
  /** Largest output (JSON text) allowed; larger gives way to jq, which reports it. */
  maxOutputBytes: number;
  /** Inputs above this many characters of JSON text run in jq (off the event loop). */
  maxInputChars: number;
  /** Work units per run (outputs, iterations, built characters / 64), plus one per input character. */
  budget: number;
  /** Compiled programs kept. */
  cacheSize: number;
}

export const INLINE_JQ_DEFAULTS: InlineJqOptions = {
  maxOutputBytes: 1024 * 1024,
  maxInputChars: 64 * 1024,
  budget: 20_000,
  cacheSize: 500,
};

export interface InlineJq {
  /**
   * jq's answer for `program` on the payload (`payloadJson` is its JSON text), or undefined when
   * jq itself must answer.
   */
  run(program: string, payload: unknown, payloadJson: string): TransformOutcome | undefined;
}

/** Why JSON text could mean to jq something JSON.parse loses (see checkText), or undefined. */
export function checkText(json: string, stringifiesNumbers: boolean): string | undefined {
  // jq 1.8 keeps the exact text of long numbers (and compares them exactly).
  if (/\d{16}/.test(json)) return "long number";
  // JavaScript puts array-index keys first; jq keeps insertion order.
  if (/"(?:0|[1-9]\d{0,9})"\s*:/.test(json)) return "index-like key";
  if (json.includes('"__proto__"')) return "__proto__ key";
  // Lone surrogates become U+FFFD in jq; paired ones are left to jq as well.
  if (/\\u[dD][89abAB]/i.test(json)) return "surrogate escape";
  // jq writes a number it read as its literal text ("1.50", "1E+2"); plain integers read the same.
  if (stringifiesNumbers && /\d[.eE]/.test(json)) return "number text";
  return undefined;
}

/** Size of a value's JSON text, or Infinity once it passes `limit` (it stops early). */
function jsonSizeWithin(value: Json, limit: number): number {
  let size = 0;
  const visit = (item: Json): void => {
    if (size > limit) return;
    if (item === null || typeof item !== "object") {
      size += typeof item === "string" ? item.length + 2 : String(item).length;
      return;
    }
    if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const element of item) visit(element);
      return;
    }
    const keys = Object.keys(item);
    size += 2 + keys.length;
    for (const key of keys) {
      size += key.length + 3;
      visit(item[key] as Json);
    }
  };
  visit(value);
  return size > limit ? Number.POSITIVE_INFINITY : size;
}

/**
 * Whether the output is clearly within the limit: jq measures the text it writes, so an output
 * near the limit (or past it) is left to jq, which fails it with its own message.
 */
function withinOutputLimit(output: Json, limit: number): boolean {
  const estimate = jsonSizeWithin(output, limit);
  if (estimate > limit) return false;
  // The estimate does not count escapes; a large output is measured exactly.
  if (estimate > limit / 8) {
    return JSON.stringify(output).length < limit - Math.min(4096, Math.floor(limit / 16));
  }
  return true;
}

export function createInlineJq(options: Partial<InlineJqOptions> = {}): InlineJq {
  const settings = { ...INLINE_JQ_DEFAULTS, ...options };
  /** Compiled programs; null: outside the subset, or it ran past its budget once. */
  const programs = createLruCache<string, CompiledProgram | null>(settings.cacheSize);
  setTextCheck((json) => checkText(json, true));

  function compiled(program: string): CompiledProgram | null {
    const cached = programs.get(program);
    if (cached !== undefined) return cached;
    let result: CompiledProgram | null;
    try {
      result = compileProgram(parseJq(program));
      // jq writes the program's own non-integer literals as it read them.
      if (result.facts.stringifiesNumbers && result.facts.exactNumberLiterals) result = null;
    } catch {
      // Outside the subset (Unsupported), or past what the parser and compiler can take (a
      // program nested thousands of levels deep overflows their recursion): jq decides.
      result = null;
    }
    programs.set(program, result);
    return result;
  }

  return {
    run(program, payload, payloadJson) {
      if (payloadJson.length > settings.maxInputChars) return undefined;
      const entry = compiled(program);
      if (!entry) return undefined;
      if (checkText(payloadJson, entry.facts.stringifiesNumbers) !== undefined) return undefined;
      startRun(settings.budget + payloadJson.length, entry.facts.stringifiesNumbers);
      let found = false;
      let output: Json = null;
      const keep = (value: Json) => {
        found = true;
        output = value;
      };
      try {
        // A program with at most one output runs to its end; others stop at their first.
        if (entry.single) entry.filter(payload as Json, null, keep);
        else takeFirst(1, (emit) => entry.filter(payload as Json, null, emit), keep);
      } catch (error) {
        // jq errors, work past the budget, anything the subset cannot answer exactly, even a
        // stack overflow on a deep input: jq answers instead. A program that ran out of budget
        // goes to jq from now on.
        if (error !== null && typeof error === "object" && "reason" in error) {
          if (error.reason === "work budget") programs.set(program, null);
        }
        return undefined;
      }
      if (!found) return { ok: false, error: "jq program produced no output" };
      try {
        if (!withinOutputLimit(output, settings.maxOutputBytes)) return undefined;
      } catch {
        // Measuring an output nested thousands of levels deep overflows the stack: jq answers.
        return undefined;
      }
      return { ok: true, output };
    },
  };
}
