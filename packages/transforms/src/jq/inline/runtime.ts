// The inline evaluator's runtime: filters as callbacks, the work budget of a run, environments,
// paths (getpath, setpath, delpaths) and the value operations jq's operators perform.
import { Unsupported } from "./lexer.js";
import {
  checkKey,
  codePointLength,
  compare,
  describe,
  equal,
  fail,
  GiveWay,
  isObject,
  JqFailure,
  type Json,
  type JsonObject,
  kindOf,
} from "./values.js";

export type Emit = (value: Json) => void;
/** A compiled filter: evaluates against `input`, calling `emit` once per output, in order. */
export type Filter = (input: Json, env: Env, emit: Emit) => void;
export type PathKey = string | number;
export type PathEmit = (value: Json, path: readonly PathKey[]) => void;
/** A filter as a path expression: emits each output with its path from the root. */
export type PathFilter = (input: Json, path: readonly PathKey[], env: Env, emit: PathEmit) => void;

/** What a direct evaluator answers for no output (`empty`, a failed `?`, a false `select`). */
export const NONE: unique symbol = Symbol("no output");
/**
 * A filter with at most one output, evaluated directly: its value, or NONE. The compiler uses
 * these for single-output subtrees (most of a reshaping program), which need no callbacks.
 */
export type Value = (input: Json, env: Env) => Json | typeof NONE;

/** Variables, innermost first; the compiler resolves each `$name` to its depth. */
export interface Frame {
  readonly value: Json;
  readonly parent: Frame | null;
}
export type Env = Frame | null;

export function bindValue(env: Env, value: Json): Env {
  return { value, parent: env };
}

export function lookup(env: Env, depth: number): Json {
  let frame = env;
  for (let step = 0; step < depth && frame; step++) frame = frame.parent;
  if (!frame) throw new Unsupported("unbound variable");
  return frame.value;
}

// ---- Work budget ---------------------------------------------------------------------------

/** Work left in the current run (outputs, iterations, characters / 64); past it, jq takes over. */
let budget = 0;
/** Longest string or array a run may build; past it, jq takes over (and enforces its limits). */
export const MAX_BUILT_LENGTH = 4 * 1024 * 1024;

/** What the current run's program does that run-time checks depend on (set per run). */
export const runFacts = { stringifiesNumbers: false };

export function startRun(units: number, stringifiesNumbers: boolean): void {
  budget = units;
  runFacts.stringifiesNumbers = stringifiesNumbers;
}

export function charge(units: number): void {
  budget -= units;
  if (budget < 0) throw new GiveWay("work budget");
}

export function chargeBuilt(length: number): void {
  if (length > MAX_BUILT_LENGTH) throw new GiveWay("built value too large");
  charge(1 + (length >>> 6));
}

// ---- Control flow --------------------------------------------------------------------------

/**
 * Runs `body`, catching the jq errors it raises itself but never those raised downstream of its
 * outputs (jq 1.7+: `try` and `//` only cover their own body). Answers the error, or undefined.
 */
export function catchOwnErrors(body: (emit: Emit) => void, emit: Emit): JqFailure | undefined {
  let downstream: unknown;
  try {
    body((value) => {
      try {
        emit(value);
      } catch (error) {
        downstream = error;
        throw error;
      }
    });
  } catch (error) {
    if (error === downstream || !(error instanceof JqFailure)) throw error;
    return error;
  }
  return undefined;
}

/** Stops a generator early (first, limit, isempty): thrown through it, caught by its owner. */
export class Stop {}

/** Calls `emit` for the first `count` outputs of `body` only, then stops it. */
export function takeFirst(count: number, body: (emit: Emit) => void, emit: Emit): void {
  if (count <= 0) return;
  const stop = new Stop();
  let taken = 0;
  try {
    body((value) => {
      taken++;
      emit(value);
      if (taken >= count) throw stop;
    });
  } catch (error) {
    if (error !== stop) throw error;
  }
}

/** All outputs of a filter, in order. */
export function collect(filter: Filter, input: Json, env: Env): Json[] {
  const out: Json[] = [];
  filter(input, env, (value) => {
    charge(1);
    out.push(value);
  });
  return out;
}

// ---- Indexing and paths --------------------------------------------------------------------

function integerIndex(key: number): number {
  if (!Number.isInteger(key)) throw new GiveWay("fractional index");
  return key;
}

/** `.[key]` (jq's jv_get), without slices. */
export function indexValue(target: Json, key: Json): Json {
  if (typeof key === "string") {
    if (isObject(target)) return Object.hasOwn(target, key) ? (target[key] as Json) : null;
    if (target === null) return null;
    fail(`Cannot index ${kindOf(target)} with "${key}"`);
  }
  if (typeof key === "number") {
    if (Array.isArray(target)) {
      const index = integerIndex(key);
      const at = index < 0 ? target.length + index : index;
      return at >= 0 && at < target.length ? (target[at] as Json) : null;
    }
    if (target === null) return null;
    fail(`Cannot index ${kindOf(target)} with number`);
  }
  if (target === null && key === null) throw new GiveWay("null index");
  throw new GiveWay(`index with ${kindOf(key)}`);
}

/** Slice bounds as jq computes them, or a give-way for fractional ones. */
function sliceBounds(length: number, from: Json, to: Json): [number, number] {
  const bound = (value: Json, fallback: number): number => {
    if (value === null) return fallback;
    if (typeof value !== "number") fail("Start and end indices of an array slice must be numbers");
    const index = integerIndex(value);
    const at = index < 0 ? length + index : index;
    return Math.min(Math.max(at, 0), length);
  };
  const start = bound(from, 0);
  const end = bound(to, length);
  return [start, Math.max(start, end)];
}

export function sliceValue(target: Json, from: Json, to: Json): Json {
  if (target === null) return null;
  if (Array.isArray(target)) {
    const [start, end] = sliceBounds(target.length, from, to);
    return target.slice(start, end);
  }
  if (typeof target === "string") {
    const points = Array.from(target);
    const [start, end] = sliceBounds(points.length, from, to);
    return points.slice(start, end).join("");
  }
  fail(`Cannot index ${kindOf(target)} with object`);
}

/** Each value of an array or object, with its key. */
export function eachEntry(target: Json, visit: (value: Json, key: PathKey) => void): void {
  if (Array.isArray(target)) {
    for (let index = 0; index < target.length; index++) {
      charge(1);
      visit(target[index] as Json, index);
    }
    return;
  }
  if (isObject(target)) {
    for (const key of Object.keys(target)) {
      charge(1);
      visit(target[key] as Json, key);
    }
    return;
  }
  fail(`Cannot iterate over ${target === null ? "null" : describe(target)}`);
}

export function getPath(root: Json, path: readonly Json[]): Json {
  let current = root;
  for (const key of path) {
    if (current === null) return null;
    current = indexValue(current, key);
  }
  return current;
}

export function setPath(root: Json, path: readonly Json[], value: Json, at = 0): Json {
  if (at === path.length) return value;
  const key = path[at] as Json;
  charge(1);
  if (typeof key === "string") {
    if (root !== null && !isObject(root)) fail(`Cannot index ${kindOf(root)} with "${key}"`);
    const base: JsonObject = root ?? {};
    const next = setPath(
      Object.hasOwn(base, key) ? (base[key] as Json) : null,
      path,
      value,
      at + 1,
    );
    const copy: JsonObject = { ...base };
    copy[checkKey(key)] = next;
    return copy;
  }
  if (typeof key === "number") {
    if (root !== null && !Array.isArray(root)) fail(`Cannot index ${kindOf(root)} with number`);
    const base: Json[] = root ?? [];
    const index = integerIndex(key);
    const position = index < 0 ? base.length + index : index;
    if (position < 0) fail("Out of bounds negative array index");
    if (position > MAX_BUILT_LENGTH) throw new GiveWay("array too long");
    const copy = base.slice();
    chargeBuilt(Math.max(copy.length, position + 1));
    while (copy.length < position) copy.push(null);
    copy[position] = setPath(
      position < base.length ? (base[position] as Json) : null,
      path,
      value,
      at + 1,
    );
    return copy;
  }
  throw new GiveWay(`path key ${kindOf(key)}`);
}

/** jq's delpaths: the paths sorted, deleted from the last, so earlier indices stay right. */
export function deletePaths(root: Json, paths: readonly (readonly Json[])[]): Json {
  const sorted = [...paths].sort((a, b) => compare(a as Json[], b as Json[]));
  let current = root;
  for (let index = sorted.length - 1; index >= 0; index--) {
    current = deletePath(current, sorted[index] as readonly Json[], 0);
  }
  return current;
}

function deletePath(root: Json, path: readonly Json[], at: number): Json {
  if (path.length === 0) return null;
  if (root === null) return null;
  const key = path[at] as Json;
  charge(1);
  const last = at === path.length - 1;
  if (typeof key === "string") {
    if (!isObject(root)) fail(`Cannot delete field at object index of ${kindOf(root)}`);
    if (!Object.hasOwn(root, key)) return root;
    const copy: JsonObject = { ...root };
    if (last) delete copy[key];
    else copy[key] = deletePath(root[key] as Json, path, at + 1);
    return copy;
  }
  if (typeof key === "number") {
    if (!Array.isArray(root)) fail(`Cannot delete field at index of ${kindOf(root)}`);
    const index = integerIndex(key);
    const position = index < 0 ? root.length + index : index;
    if (position < 0 || position >= root.length) {
      if (position < 0 && last) fail("Out of bounds negative array index");
      return root;
    }
    const copy = root.slice();
    if (last) copy.splice(position, 1);
    else copy[position] = deletePath(root[position] as Json, path, at + 1);
    return copy;
  }
  throw new GiveWay(`delete with ${kindOf(key)}`);
}

// ---- Operators -----------------------------------------------------------------------------

function objectMerge(a: JsonObject, b: JsonObject): JsonObject {
  const merged: JsonObject = { ...a };
  for (const key of Object.keys(b)) merged[key] = b[key] as Json;
  charge(Object.keys(merged).length);
  return merged;
}

function deepMerge(a: JsonObject, b: JsonObject): JsonObject {
  const merged: JsonObject = { ...a };
  for (const key of Object.keys(b)) {
    const left = merged[key];
    const right = b[key] as Json;
    merged[key] =
      left !== undefined && isObject(left) && isObject(right) ? deepMerge(left, right) : right;
  }
  charge(Object.keys(merged).length);
  return merged;
}

export function add(a: Json, b: Json): Json {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === "number" && typeof b === "number") return finite(a + b);
  if (typeof a === "string" && typeof b === "string") {
    chargeBuilt(a.length + b.length);
    return a + b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    chargeBuilt(a.length + b.length);
    return a.concat(b);
  }
  if (isObject(a) && isObject(b)) return objectMerge(a, b);
  fail(`${describe(a)} and ${describe(b)} cannot be added`);
}

export function subtract(a: Json, b: Json): Json {
  if (typeof a === "number" && typeof b === "number") return finite(a - b);
  if (Array.isArray(a) && Array.isArray(b)) {
    charge(a.length * Math.max(1, b.length));
    return a.filter((item) => !b.some((other) => equal(item, other)));
  }
  fail(`${describe(a)} and ${describe(b)} cannot be subtracted`);
}

export function multiply(a: Json, b: Json): Json {
  if (typeof a === "number" && typeof b === "number") return finite(a * b);
  if (isObject(a) && isObject(b)) return deepMerge(a, b);
  // String repetition: jq 1.8's rounding of fractional counts is left to jq.
  const text = typeof a === "string" ? a : typeof b === "string" ? b : undefined;
  const count = typeof a === "number" ? a : typeof b === "number" ? b : undefined;
  if (text !== undefined && count !== undefined) {
    if (!Number.isInteger(count) || count < 0) throw new GiveWay("repeat count");
    if (count === 0) return "";
    chargeBuilt(text.length * count);
    return text.repeat(count);
  }
  fail(`${describe(a)} and ${describe(b)} cannot be multiplied`);
}

export function divide(a: Json, b: Json): Json {
  if (typeof a === "number" && typeof b === "number") {
    if (b === 0)
      fail(`${describe(a)} and ${describe(b)} cannot be divided because the divisor is zero`);
    return finite(a / b);
  }
  if (typeof a === "string" && typeof b === "string") return splitString(a, b);
  fail(`${describe(a)} and ${describe(b)} cannot be divided`);
}

export function modulo(a: Json, b: Json): Json {
  if (typeof a === "number" && typeof b === "number") {
    // jq truncates both to integers first; beyond the safe range its casts differ from ours.
    if (!Number.isSafeInteger(Math.trunc(a)) || !Number.isSafeInteger(Math.trunc(b))) {
      throw new GiveWay("modulo of a huge number");
    }
    const divisor = Math.trunc(b);
    if (divisor === 0) {
      fail(
        `${describe(a)} and ${describe(b)} cannot be divided (remainder) because the divisor is zero`,
      );
    }
    const result = Math.trunc(a) % divisor;
    return result === 0 ? 0 : result;
  }
  fail(`${describe(a)} and ${describe(b)} cannot be divided (remainder)`);
}

export function splitString(text: string, separator: string): Json[] {
  if (text === "") return [];
  if (separator === "") {
    const points = Array.from(text);
    charge(points.length);
    return points;
  }
  const parts = text.split(separator);
  charge(parts.length);
  return parts;
}

/** Non-finite results are written differently by jq (as ±1.797...e308); jq takes those runs. */
export function finite(value: number): number {
  if (!Number.isFinite(value)) throw new GiveWay("non-finite number");
  return value;
}

/**
 * jq 1.8.2 negates a number it read as a literal into 0 (`-(0)`), a computed zero into -0
 * (`-(0 + 0)`); the sign only shows when jq writes the number, so such a run goes to jq.
 */
export function negate(value: Json): Json {
  if (typeof value === "number") {
    if (value === 0 && runFacts.stringifiesNumbers) throw new GiveWay("negated zero");
    return 0 - value;
  }
  fail(`${describe(value)} cannot be negated`);
}

export function lengthOf(value: Json): Json {
  if (value === null) return 0;
  switch (typeof value) {
    case "boolean":
      return fail(`boolean (${value}) has no length`);
    case "number":
      return Math.abs(value);
    case "string":
      return codePointLength(value);
    default:
      return Array.isArray(value) ? value.length : Object.keys(value).length;
  }
}

export { compare, equal };
