import { getPath } from "@hookflow/domain";
import type {
  SchemaField,
  SchemaFieldConstraints,
  SchemaValidatorConfig,
} from "../families/definitions.js";
import { createInlinePatterns, type InlinePatterns } from "./inline-patterns.js";
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

/** A pattern check left for the pattern port (too costly for the event loop). */
export interface PatternCheck {
  source: string;
  value: string;
}

/** Matches patterns off the event loop, under a time limit (the worker's and api's runner). */
export interface PatternPort {
  match(
    checks: readonly PatternCheck[],
  ): Promise<{ ok: true; results: Array<boolean | string> } | { ok: false; error: string }>;
}

/** An error, or the index of a pattern check whose answer decides one. */
type Finding = string | { check: number; path: string };

/**
 * The constraints that apply to the value's type: `min`/`max` to numbers, `minLength`/
 * `maxLength` to strings and arrays, `pattern` and `format` to strings, `enum` to anything
 * (compared as JSON scalars). A constraint that does not apply to the value's type is ignored
 * (the type check already reports a mismatch).
 */
function checkConstraints(
  path: string,
  value: unknown,
  c: SchemaFieldConstraints,
  patterns: InlinePatterns,
): Finding[] {
  const errors: Finding[] = [];
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
      const verdict = patterns.test(c.pattern, value);
      if (typeof verdict === "number") errors.push({ check: verdict, path });
      else if (verdict !== true) errors.push(patternError(path, c.pattern, verdict));
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

/** `false`: no match; a string: the pattern cannot run. */
function patternError(path: string, source: string, verdict: false | string): string {
  return verdict === false
    ? `${path}: must match pattern ${source}`
    : `${path}: pattern rejected (${verdict})`;
}

function checkField(payload: unknown, field: SchemaField, patterns: InlinePatterns): Finding[] {
  const { found, value } = getPath(payload, field.path);
  if (!found) return field.required ? [`${field.path}: is required`] : [];
  if (!hasType(value, field.type)) {
    return [`${field.path}: expected ${field.type}, got ${typeOf(value)}`];
  }
  return field.constraints ? checkConstraints(field.path, value, field.constraints, patterns) : [];
}

/**
 * Validates a payload against a schema validator's fields (docs/decisions.md, "Node families and canvas"). Paths are
 * dot notation with numeric array indexes, as in filters. A field that is absent fails only when
 * `required`; a field holding `null` is present and must have type `null`. With `strictMode`,
 * fields the schema does not list are rejected (see `checkStrictMode` for what "listed" means).
 * Every problem is reported, not just the first. Patterns run on the linear-time engine, on the
 * calling thread while their cost fits the inline budget and through `port` (off the event loop,
 * under a time limit) beyond it.
 */
export async function validateSchema(
  config: SchemaValidatorConfig,
  payload: unknown,
  port: PatternPort,
): Promise<SchemaValidationResult> {
  const patterns = createInlinePatterns();
  const findings: Finding[] = [];
  for (const field of config.fields) findings.push(...checkField(payload, field, patterns));
  let answers: Array<boolean | string> = [];
  if (patterns.deferred.length > 0) {
    const matched = await port.match(patterns.deferred);
    if (!matched.ok) return { ok: false, errors: [`pattern matching failed: ${matched.error}`] };
    answers = matched.results;
  }
  const errors: string[] = [];
  for (const finding of findings) {
    if (typeof finding === "string") {
      errors.push(finding);
      continue;
    }
    const check = patterns.deferred[finding.check] as PatternCheck;
    const answer = answers[finding.check] ?? "no answer";
    if (answer !== true) errors.push(patternError(finding.path, check.source, answer));
  }
  if (config.strictMode) errors.push(...checkStrictMode(config.fields, payload));
  if (errors.length === 0) return { ok: true };
  if (errors.length > MAX_SCHEMA_ERRORS) {
    const rest = errors.length - MAX_SCHEMA_ERRORS;
    return { ok: false, errors: [...errors.slice(0, MAX_SCHEMA_ERRORS), `and ${rest} more`] };
  }
  return { ok: false, errors };
}
