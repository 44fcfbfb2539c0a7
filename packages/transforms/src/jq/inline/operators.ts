// What jq's operators and the subset's builtins do to values. Anything jq would fail, and
// anything whose jq answer JavaScript cannot reproduce (fractional indices, non-finite numbers,
// string repetition, array subtraction...), gives way: jq answers (and words its errors).
import type { BinaryOp } from "./ast.js";
import { charge, compare, equal, giveWay, isObject, type Json, sortedKeys } from "./values.js";

/** What an optional index (`.a?`, `.[i]?`) answers for a target it cannot index. */
export const NONE: unique symbol = Symbol("no output");
/** Longest string a run may build; past it, jq takes over (and enforces its own limits). */
const MAX_STRING = 4 * 1024 * 1024;

/** `.[key]` (jq's INDEX), or NONE when `opt` suppresses its error. */
export function indexValue(target: Json, key: Json, opt: boolean): Json | typeof NONE {
  if (target === null && (typeof key === "string" || Number.isInteger(key))) return null;
  if (typeof key === "string" && isObject(target)) {
    return Object.hasOwn(target, key) ? (target[key] as Json) : null;
  }
  if (typeof key === "number" && Number.isInteger(key) && Array.isArray(target)) {
    return target[key < 0 ? target.length + key : key] ?? null;
  }
  // jq fails these (an optional index outputs nothing); other keys are jq's to judge.
  return opt && (typeof key === "string" || Number.isInteger(key)) ? NONE : giveWay("index");
}

/** `.[]`: the values of an array or object, in order (none for `.[]?` on anything else). */
export function valuesOf(target: Json, opt: boolean): readonly Json[] {
  const values = Array.isArray(target) ? target : isObject(target) ? Object.values(target) : null;
  if (!values) return opt ? [] : giveWay("cannot iterate");
  charge(values.length);
  return values;
}

/** jq writes non-finite numbers as ±1.797...e308 (or null); jq takes those runs. */
function finite(value: number): number {
  return Number.isFinite(value) ? value : giveWay("non-finite number");
}

function add(a: Json, b: Json): Json {
  if (a === null || b === null) return a ?? b;
  if (typeof a === "number" && typeof b === "number") return finite(a + b);
  if (typeof a === "string" && typeof b === "string") {
    if (a.length + b.length > MAX_STRING) giveWay("string too long");
    charge(1 + ((a.length + b.length) >>> 6));
    return a + b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    charge(a.length + b.length);
    return a.concat(b);
  }
  if (!isObject(a) || !isObject(b)) return giveWay("cannot add");
  const merged = { ...a, ...b };
  charge(Object.keys(merged).length);
  return merged;
}

/** A numeric operator: jq's on two numbers; any other operands make jq fail (or repeat strings). */
function arithmetic(op: (x: number, y: number) => number): (a: Json, b: Json) => Json {
  return (a, b) =>
    typeof a === "number" && typeof b === "number" ? finite(op(a, b)) : giveWay("arithmetic");
}

/** jq truncates both to integers first; beyond the safe range its casts differ from ours. */
function modulo(a: number, b: number): number {
  const [x, y] = [Math.trunc(a), Math.trunc(b)];
  if (!Number.isSafeInteger(x) || !Number.isSafeInteger(y) || y === 0) giveWay("modulo");
  return x % y || 0;
}

export const BINARY: Record<BinaryOp, (a: Json, b: Json) => Json> = {
  "+": add,
  "-": arithmetic((x, y) => x - y),
  "*": arithmetic((x, y) => x * y),
  "/": arithmetic((x, y) => (y === 0 ? giveWay("division by zero") : x / y)),
  "%": arithmetic(modulo),
  "==": equal,
  "!=": (a, b) => !equal(a, b),
  "<": (a, b) => compare(a, b) < 0,
  "<=": (a, b) => compare(a, b) <= 0,
  ">": (a, b) => compare(a, b) > 0,
  ">=": (a, b) => compare(a, b) >= 0,
};

export function negate(value: Json): Json {
  return typeof value === "number" ? -value : giveWay("cannot negate");
}

export function lengthOf(value: Json): Json {
  if (value === null || typeof value === "boolean") return value === null ? 0 : giveWay("length");
  if (typeof value === "number") return Math.abs(value);
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object") return sortedKeys(value).length;
  charge(value.length >>> 6);
  let codePoints = 0;
  for (const _ of value) codePoints++;
  return codePoints;
}

export function keysOf(value: Json): Json {
  if (isObject(value)) return sortedKeys(value);
  if (!Array.isArray(value)) return giveWay("has no keys");
  charge(value.length);
  return Array.from(value, (_item, index) => index);
}
