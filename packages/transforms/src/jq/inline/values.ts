// jq's value semantics for the inline evaluator: kinds and their order, comparison, equality,
// number and JSON text as jq 1.8 writes them, strings counted in code points. Everything here is
// checked against jq itself by the differential tests (inline-jq.test.ts).

/** A JSON value as jq sees it. Objects never hold array-index-like keys or `__proto__` here. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

/**
 * A jq error raised while evaluating. `exact` is false when the message may differ from jq's own
 * wording (a `catch` that would read it makes the inline run give way to jq).
 */
export class JqFailure {
  constructor(
    readonly value: Json,
    readonly exact: boolean,
  ) {}
}

/** The inline evaluator cannot answer this run exactly; jq itself must. */
export class GiveWay {
  constructor(readonly reason: string) {}
}

export type Kind = "null" | "boolean" | "number" | "string" | "array" | "object";

export function kindOf(value: Json): Kind {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
    default:
      return Array.isArray(value) ? "array" : "object";
  }
}

export function isObject(value: Json): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function truthy(value: Json): boolean {
  return value !== null && value !== false;
}

/** A failure whose wording is ours (jq's may differ). */
export function fail(message: string): never {
  throw new JqFailure(message, false);
}

/** jq's order of kinds: null < false < true < numbers < strings < arrays < objects. */
function rank(value: Json): number {
  if (value === null) return 0;
  if (value === false) return 1;
  if (value === true) return 2;
  switch (typeof value) {
    case "number":
      return 3;
    case "string":
      return 4;
    default:
      return Array.isArray(value) ? 5 : 6;
  }
}

const SURROGATE_OR_ABOVE = /[\uD800-\uFFFF]/;

/** Strings compare by code point (jq compares UTF-8 bytes), not by UTF-16 unit. */
export function compareStrings(a: string, b: string): number {
  if (!SURROGATE_OR_ABOVE.test(a) && !SURROGATE_OR_ABOVE.test(b)) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = Array.from(a);
  const y = Array.from(b);
  const length = Math.min(x.length, y.length);
  for (let index = 0; index < length; index++) {
    const cx = (x[index] as string).codePointAt(0) as number;
    const cy = (y[index] as string).codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
}

/** jq's total order of values (sort, min, max, unique, group_by, comparisons). */
export function compare(a: Json, b: Json): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 3: {
      const x = a as number;
      const y = b as number;
      if (Number.isNaN(x) || Number.isNaN(y)) throw new GiveWay("NaN compared");
      return x < y ? -1 : x > y ? 1 : 0;
    }
    case 4:
      return compareStrings(a as string, b as string);
    case 5: {
      const x = a as Json[];
      const y = b as Json[];
      const length = Math.min(x.length, y.length);
      for (let index = 0; index < length; index++) {
        const order = compare(x[index] as Json, y[index] as Json);
        if (order !== 0) return order;
      }
      return x.length < y.length ? -1 : x.length > y.length ? 1 : 0;
    }
    case 6: {
      const x = a as JsonObject;
      const y = b as JsonObject;
      const kx = sortedKeys(x);
      const ky = sortedKeys(y);
      const byKeys = compare(kx, ky);
      if (byKeys !== 0) return byKeys;
      for (const key of kx) {
        const order = compare(x[key] as Json, y[key] as Json);
        if (order !== 0) return order;
      }
      return 0;
    }
    default:
      return 0;
  }
}

export function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    if (typeof a === "number" && typeof b === "number") {
      if (Number.isNaN(a) || Number.isNaN(b)) throw new GiveWay("NaN compared");
    }
    return false;
  }
  return compare(a, b) === 0;
}

export function sortedKeys(object: JsonObject): string[] {
  return Object.keys(object).sort(compareStrings);
}

/** Code points in a string (jq's `length` of a string). */
export function codePointLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

/** A number as jq 1.8 writes a computed double: the shortest round trip, jq's own layout. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "null";
  if (!Number.isFinite(value)) {
    return value > 0 ? "1.7976931348623157e+308" : "-1.7976931348623157e+308";
  }
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  const [mantissa = "", exponentText = "0"] = value.toExponential().split("e");
  const sign = value < 0 ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  const exponent = Number(exponentText);
  const point = exponent + 1;
  if (point <= -4 || point > digits.length + 15) {
    const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const size = Math.abs(exponent);
    return `${sign}${lead}e${exponent < 0 ? "-" : "+"}${size < 10 ? `0${size}` : size}`;
  }
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${"0".repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A string as jq writes it in JSON text (it also escapes DEL). */
export function quoteString(text: string): string {
  const quoted = JSON.stringify(text);
  return quoted.includes("\u007f") ? quoted.replace(/\u007f/g, "\\u007f") : quoted;
}

/** JSON text as jq's `tojson` writes it: compact, jq's number layout, insertion order. */
export function toJsonText(value: Json): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      return formatNumber(value);
    case "string":
      return quoteString(value);
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    parts.push(`${quoteString(key)}:${toJsonText(value[key] as Json)}`);
  }
  return `{${parts.join(",")}}`;
}

/** `tostring`: a string as is, anything else as its JSON text. */
export function toText(value: Json): string {
  return typeof value === "string" ? value : toJsonText(value);
}

/**
 * The short form of a value jq puts in error messages (`number (5)`), cut as jq cuts it. Only used
 * for messages marked inexact, so the cut need not match jq's byte for byte.
 */
export function describe(value: Json): string {
  const text = toJsonText(value);
  return `${kindOf(value)} (${text.length > 11 ? `${text.slice(0, 10)}...` : text})`;
}

/** Keys a JavaScript object would put first (array indices); jq keeps insertion order. */
export function isIndexLikeKey(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key);
}

/** A key the inline evaluator will not hold in an object. */
export function checkKey(key: string): string {
  if (key === "__proto__" || isIndexLikeKey(key)) throw new GiveWay(`object key ${key}`);
  return key;
}
