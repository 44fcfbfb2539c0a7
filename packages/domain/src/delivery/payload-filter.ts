/**
 * Payload filter rules shared by webhook payloadFilters, additional-target filters, filter nodes
 * and routers (docs/decisions.md, "Node families and canvas"). Pure: no I/O, never throws on odd payloads.
 */

export type FilterOperator =
  | "eq"
  | "neq"
  | "contains"
  | "gt"
  | "lt"
  | "exists"
  | "not_exists"
  | "in"
  | "not_in";

/** `operator` is typed as string because stored rules come back as text; unknown ones never match. */
export type PayloadFilter = {
  field: string;
  operator: FilterOperator | (string & {});
  value?: unknown;
};

export type PathLookup = { found: boolean; value: unknown };

const INDEX = /^(0|[1-9]\d*)$/;

/** Dot-notation lookup with numeric array indexes (`items.0.sku`); an empty path is the value. */
export function getPath(value: unknown, path: string): PathLookup {
  if (path === "") return { found: true, value };
  let current: unknown = value;
  for (const segment of path.split(".")) {
    if (Array.isArray(current)) {
      if (!INDEX.test(segment) || Number(segment) >= current.length)
        return { found: false, value: undefined };
      current = current[Number(segment)];
    } else if (typeof current === "object" && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return { found: false, value: undefined };
    }
  }
  return { found: true, value: current };
}

/** A finite number from a number or numeric text; null for anything else. */
function numberOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

function toText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value) ?? "";
}

/** String or number equality: `"5"` equals `5`; `true` equals `"true"`; `null` equals `"null"`. */
export function filterValuesEqual(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "number" || typeof expected === "number") {
    const a = numberOf(actual);
    const b = numberOf(expected);
    return a !== null && b !== null && a === b;
  }
  return toText(actual) === toText(expected);
}

/** The list of an `in` / `not_in` rule: an array, a JSON array text, or comma-separated text. */
export function parseFilterValueList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return value === undefined || value === null ? [] : [value];
  const text = value.trim();
  if (text.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not JSON: fall through to the comma-separated form.
    }
  }
  return text === "" ? [] : text.split(",").map((item) => item.trim());
}

function contains(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "string") return actual.includes(toText(expected));
  if (Array.isArray(actual)) return actual.some((item) => filterValuesEqual(item, expected));
  return false;
}

function compare(actual: unknown, expected: unknown, test: (a: number, b: number) => boolean) {
  const a = numberOf(actual);
  const b = numberOf(expected);
  return a !== null && b !== null && test(a, b);
}

/**
 * One rule against a payload. A missing field matches only `neq`, `not_exists` and `not_in`; a
 * field holding `null` exists.
 */
export function matchesFilter(payload: unknown, filter: PayloadFilter): boolean {
  const { found, value } = getPath(payload, filter.field);
  switch (filter.operator) {
    case "exists":
      return found;
    case "not_exists":
      return !found;
    case "eq":
      return found && filterValuesEqual(value, filter.value);
    case "neq":
      return !found || !filterValuesEqual(value, filter.value);
    case "contains":
      return found && contains(value, filter.value);
    case "gt":
      return found && compare(value, filter.value, (a, b) => a > b);
    case "lt":
      return found && compare(value, filter.value, (a, b) => a < b);
    case "in":
      return (
        found && parseFilterValueList(filter.value).some((item) => filterValuesEqual(value, item))
      );
    case "not_in":
      return (
        !found || !parseFilterValueList(filter.value).some((item) => filterValuesEqual(value, item))
      );
    default:
      return false;
  }
}

/** AND of every rule; an empty list matches. */
export function matchesAll(payload: unknown, filters: readonly PayloadFilter[]): boolean {
  return filters.every((filter) => matchesFilter(payload, filter));
}

/** OR of the rules; an empty list matches too (no rule, no restriction). */
export function matchesAny(payload: unknown, filters: readonly PayloadFilter[]): boolean {
  return filters.length === 0 || filters.some((filter) => matchesFilter(payload, filter));
}
