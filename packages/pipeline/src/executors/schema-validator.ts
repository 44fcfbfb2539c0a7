import { getPath } from "@hookflow/domain";
import type {
  SchemaField,
  SchemaFieldConstraints,
  SchemaValidatorConfig,
} from "../families/definitions.js";
import { isSafePattern } from "./safe-pattern.js";
import { checkStrictMode } from "./strict-mode.js";
import { matchesFormat } from "./value-formats.js";

export type SchemaValidationResult = { ok: true } | { ok: false; errors: string[] };

/** At most this many errors are reported; the rest are summarised in one line. */
export const MAX_SCHEMA_ERRORS = 50;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: SchemaField["type"]): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
  }
}

/** Length in Unicode code points for strings (an emoji counts once), items for arrays. */
function lengthOf(value: unknown): number | undefined {
  if (typeof value === "string") return [...value].length;
  if (Array.isArray(value)) return value.length;
  return undefined;
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/**
 * The constraints that apply to the value's type: `min`/`max` to numbers, `minLength`/
 * `maxLength` to strings and arrays, `pattern` and `format` to strings, `enum` to anything
 * (compared as JSON scalars). A constraint that does not apply to the value's type is ignored
 * (the type check already reports a mismatch).
 */
/** Compiled patterns by source (null: refused as unsafe), so events do not recompile them. */
const PATTERNS = new Map<string, RegExp | null>();
const PATTERN_CACHE_MAX = 1000;

function compiledPattern(source: string): RegExp | null {
  let compiled = PATTERNS.get(source);
  if (compiled === undefined) {
    compiled = isSafePattern(source) ? new RegExp(source, "u") : null;
    if (PATTERNS.size >= PATTERN_CACHE_MAX) PATTERNS.clear();
    PATTERNS.set(source, compiled);
  }
  return compiled;
}

function checkConstraints(path: string, value: unknown, c: SchemaFieldConstraints): string[] {
  const errors: string[] = [];
  if (typeof value === "number") {
    if (c.min !== undefined && value < c.min) errors.push(`${path}: must be >= ${c.min}`);
    if (c.max !== undefined && value > c.max) errors.push(`${path}: must be <= ${c.max}`);
  }
  const length = lengthOf(value);
  if (length !== undefined) {
    if (c.minLength !== undefined && length < c.minLength) {
      errors.push(`${path}: length must be >= ${c.minLength}`);
    }
    if (c.maxLength !== undefined && length > c.maxLength) {
      errors.push(`${path}: length must be <= ${c.maxLength}`);
    }
  }
  if (typeof value === "string") {
    if (c.pattern !== undefined) {
      const pattern = compiledPattern(c.pattern);
      if (pattern === null) {
        errors.push(`${path}: pattern rejected (nested unbounded repetition could run for ever)`);
      } else if (!pattern.test(value)) {
        errors.push(`${path}: must match pattern ${c.pattern}`);
      }
    }
    if (c.format !== undefined && !matchesFormat(c.format, value)) {
      errors.push(`${path}: must be a valid ${c.format}`);
    }
  }
  if (c.enum !== undefined && !c.enum.some((item) => item === value)) {
    errors.push(`${path}: must be one of ${c.enum.map(show).join(", ")}`);
  }
  return errors;
}

function checkField(payload: unknown, field: SchemaField): string[] {
  const { found, value } = getPath(payload, field.path);
  if (!found) return field.required ? [`${field.path}: is required`] : [];
  if (!hasType(value, field.type)) {
    return [`${field.path}: expected ${field.type}, got ${typeOf(value)}`];
  }
  return field.constraints ? checkConstraints(field.path, value, field.constraints) : [];
}

/**
 * Validates a payload against a schema validator's fields (decisions.md section 8). Paths are
 * dot notation with numeric array indexes, as in filters. A field that is absent fails only when
 * `required`; a field holding `null` is present and must have type `null`. With `strictMode`,
 * fields the schema does not list are rejected (see `checkStrictMode` for what "listed" means).
 * Pure and synchronous; every problem is reported, not just the first.
 */
export function validateSchema(
  config: SchemaValidatorConfig,
  payload: unknown,
): SchemaValidationResult {
  const errors: string[] = [];
  for (const field of config.fields) errors.push(...checkField(payload, field));
  if (config.strictMode) errors.push(...checkStrictMode(config.fields, payload));
  if (errors.length === 0) return { ok: true };
  if (errors.length > MAX_SCHEMA_ERRORS) {
    const rest = errors.length - MAX_SCHEMA_ERRORS;
    return { ok: false, errors: [...errors.slice(0, MAX_SCHEMA_ERRORS), `and ${rest} more`] };
  }
  return { ok: false, errors };
}
