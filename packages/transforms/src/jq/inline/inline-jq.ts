// jq programs on the calling thread, without a thread hop or jq's WebAssembly, for the subset
// that pays (paths, iteration, construction, pipes and commas, arithmetic, comparisons,
// `and or not // select map length keys`, `as $x`): parsed (parser.ts), compiled to closures
// (compile.ts). jq itself stays the authority: a program outside the subset, an input whose JSON
// text jq would read with a meaning JavaScript loses, any error, and any run past its work budget
// go to jq-wasm on its threads (which enforces the time limit), so an inline answer is jq's.
import { createLruCache } from "../../lru-cache.js";
import type { TransformOutcome } from "../../types.js";
import { compileProgram, type Filter } from "./compile.js";
import { parseJq } from "./parser.js";
import { GiveWay, type Json, startRun } from "./values.js";

export interface InlineJqOptions {
  /** Largest output (JSON text) allowed; larger gives way to jq, which reports it. */
  maxOutputBytes: number;
  /** Inputs above this many characters of JSON text run in jq (off the event loop). */
  maxInputChars: number;
  /** Work units per run (see `charge` in values.ts), plus one per input character. */
  budget: number;
  /** Compiled programs kept. */
  cacheSize: number;
}

const INLINE_JQ_DEFAULTS: InlineJqOptions = {
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

/*
 * JSON text jq would read with a meaning JavaScript loses: numbers of 16+ digits or huge
 * exponents (jq 1.8 keeps their exact text and compares it), array-index-like keys (JavaScript
 * iterates them first; jq keeps insertion order), `__proto__`, escaped surrogates (lone ones
 * become U+FFFD in jq). A number is told from digits in a string by what precedes it, once a
 * quicker look (LONG_DIGITS) found such digits anywhere.
 */
// Written out: V8 scans `\d\d\d` several times faster than `\d{3}`.
const D8 = "\\d\\d\\d\\d\\d\\d\\d\\d";
const LONG_DIGITS = new RegExp(`${D8}\\.\\d|\\d\\.${D8}|${D8}${D8}|\\d[eE][+-]?\\d\\d\\d`);
const LONG_NUMBER = /(?:^|[:,[])\s*-?(?:(?:\.?\d){16}|[\d.]+[eE][+-]?\d{3})/;
const LOSSY_KEY_OR_ESCAPE = /"(?:0|[1-9]\d{0,9})"\s*:|"__proto__"|\\u[dD][89abAB]/;

/** Whether a value's JSON text, escapes aside, takes at most `limit` characters. */
function fitsWithin(value: Json, limit: number): boolean {
  let size = 0;
  const visit = (item: Json): void => {
    if (size > limit) return;
    if (item === null || typeof item !== "object") {
      size += typeof item === "string" ? item.length + 2 : String(item).length;
      return;
    }
    const keys = Array.isArray(item) ? [] : Object.keys(item);
    const children = Array.isArray(item) ? item : Object.values(item);
    size += 2 + children.length + keys.reduce((sum, key) => sum + key.length + 3, 0);
    for (const child of children) visit(child);
  };
  visit(value);
  return size <= limit;
}

export function createInlineJq(options: Partial<InlineJqOptions> = {}): InlineJq {
  const settings = { ...INLINE_JQ_DEFAULTS, ...options };
  /** Compiled programs; null: outside the subset, or it ran past its budget once. */
  const programs = createLruCache<string, Filter | null>(settings.cacheSize);

  function compiled(program: string): Filter | null {
    let filter = programs.get(program);
    if (filter !== undefined) return filter;
    try {
      filter = compileProgram(parseJq(program));
    } catch {
      // Outside the subset (Unsupported), or nested past what the parser's recursion takes.
      filter = null;
    }
    programs.set(program, filter);
    return filter;
  }

  return {
    run(program, payload, payloadJson) {
      if (payloadJson.length > settings.maxInputChars) return undefined;
      const filter = compiled(program);
      if (!filter || LOSSY_KEY_OR_ESCAPE.test(payloadJson)) return undefined;
      if (LONG_DIGITS.test(payloadJson) && LONG_NUMBER.test(payloadJson)) return undefined;
      startRun(settings.budget + payloadJson.length);
      try {
        const outputs = filter(payload as Json, []);
        if (outputs.length === 0) return { ok: false, error: "jq program produced no output" };
        const output = outputs[0] as Json;
        // jq measures the text it writes (an escape takes up to 6 characters): an output that
        // could come near the limit is left to jq, which fails it with its own message.
        return fitsWithin(output, settings.maxOutputBytes / 6) ? { ok: true, output } : undefined;
      } catch (error) {
        // A jq error, work past the budget, anything the subset cannot answer exactly, a stack
        // overflow on a deep input or output: jq answers. A program past its budget goes to jq
        // from now on.
        if (error instanceof GiveWay && error.reason === "work budget") programs.set(program, null);
        return undefined;
      }
    },
  };
}
