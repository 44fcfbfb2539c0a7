import type { SchemaFieldConstraints } from "../families/definitions.js";

export type ValueFormat = NonNullable<SchemaFieldConstraints["format"]>;

/** One `@`, no spaces, a dot in the domain: the practical check, not RFC 5322's full grammar. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/u;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 date-time: a full date, a time with seconds and a zone (Z or an offset). */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[];
  if (month === undefined || month < 1 || month > 12) return false;
  if (day === undefined || day < 1 || day > daysInMonth(year ?? 0, month)) return false;
  if ((hour ?? 99) > 23 || (minute ?? 99) > 59 || (second ?? 99) > 60) return false;
  if (m[9] !== undefined && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return true;
}

function isUri(value: string): boolean {
  if (!SCHEME.test(value) || /\s/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** `email`, `uri` (absolute, with a scheme), `date-time` (RFC 3339), `uuid` (any version). */
export function matchesFormat(format: ValueFormat, value: string): boolean {
  switch (format) {
    case "email":
      return value.length <= 320 && EMAIL.test(value);
    case "uri":
      return isUri(value);
    case "date-time":
      return isDateTime(value);
    case "uuid":
      return UUID.test(value);
  }
}
