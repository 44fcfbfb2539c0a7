// jq's values for the inline evaluator: truth, jq's total order and equality, and the work budget
// of a run. Whatever JavaScript would answer differently from jq is a GiveWay (jq answers).

/** A JSON value as jq sees it. Objects never hold array-index-like keys or `__proto__` here. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/** The inline evaluator cannot answer this run exactly (a jq error included); jq itself must. */
export class GiveWay {
  constructor(readonly reason: string) {}
}

export function giveWay(reason: string): never {
  throw new GiveWay(reason);
}

export function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function truthy(value: Json): boolean {
  return value !== null && value !== false;
}

/** Work left in the run: node evaluations, iterated elements, compared values, values built. */
let budget = 0;

export function startRun(units: number): void {
  budget = units;
}

export function charge(units: number): void {
  budget -= units;
  if (budget < 0) giveWay("work budget");
}

/** Keys JavaScript would reorder (array indices) or treat specially; jq keeps insertion order. */
export function checkKey(key: string): string {
  if (key === "__proto__" || /^(?:0|[1-9]\d{0,9})$/.test(key)) giveWay(`object key ${key}`);
  return key;
}

/** jq's order of kinds: null < false < true < numbers < strings < arrays < objects. */
function rank(value: Json): number {
  if (value === null || typeof value === "boolean") return value === null ? 0 : value ? 2 : 1;
  if (typeof value !== "object") return typeof value === "number" ? 3 : 4;
  return Array.isArray(value) ? 5 : 6;
}

/** jq orders strings by code point; UTF-16 order differs only past U+D7FF, left to jq. */
function compareStrings(a: string, b: string): number {
  charge((a.length + b.length) >>> 6);
  if (/[\uD800-\uFFFF]/.test(a) || /[\uD800-\uFFFF]/.test(b)) giveWay("string order");
  return a < b ? -1 : a > b ? 1 : 0;
}

/** jq's total order: arrays element by element, objects by their sorted keys, then values. */
export function compare(a: Json, b: Json): number {
  charge(1);
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb || a === b) return Math.sign(ra - rb);
  if (typeof a === "number") return Math.sign(a - (b as number));
  if (typeof a === "string") return compareStrings(a, b as string);
  const [x, y] = isObject(a)
    ? [sortedKeys(a), sortedKeys(b as JsonObject)]
    : [a as Json[], b as Json[]];
  for (let index = 0; index < x.length && index < y.length; index++) {
    const order = compare(x[index] as Json, y[index] as Json);
    if (order !== 0) return order;
  }
  if (x.length !== y.length || !isObject(a)) return Math.sign(x.length - y.length);
  for (const key of x as string[]) {
    const order = compare(a[key] as Json, (b as JsonObject)[key] as Json);
    if (order !== 0) return order;
  }
  return 0;
}

export function equal(a: Json, b: Json): boolean {
  // Equal strings are compared character by character.
  if (typeof a === "string" && typeof b === "string") charge(a.length >>> 6);
  return a === b || (typeof a === "object" && typeof b === "object" && compare(a, b) === 0);
}

export function sortedKeys(object: JsonObject): string[] {
  const keys = Object.keys(object);
  charge(keys.length);
  return keys.sort(compareStrings);
}
