// jq's @formats: how a value is written by `@text`, `@json`, `@html`, `@uri`, `@csv`, `@tsv`,
// `@sh` and `@base64` (alone, or for the interpolated values of `@format "...\(x)..."`).
import { chargeBuilt } from "./runtime.js";
import { describe, fail, formatNumber, type Json, kindOf, toJsonText, toText } from "./values.js";

export type Format = (value: Json) => string;

const HTML: Record<string, string> = {
  "<": "&lt;",
  ">": "&gt;",
  "&": "&amp;",
  "'": "&#39;",
  '"': "&quot;",
};

function uri(value: Json): string {
  const bytes = Buffer.from(toText(value), "utf8");
  let out = "";
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function row(value: Json, name: string, cell: (item: Json) => string, separator: string): string {
  if (!Array.isArray(value))
    fail(`${describe(value)} cannot be ${name}-formatted, only an array can be`);
  return value.map(cell).join(separator);
}

function csvCell(item: Json): string {
  switch (kindOf(item)) {
    case "number":
      return formatNumber(item as number);
    case "boolean":
      return item ? "true" : "false";
    case "null":
      return "";
    case "string":
      return `"${(item as string).replace(/"/g, '""')}"`;
    default:
      return fail(`${describe(item)} is not valid in a csv row`);
  }
}

function tsvCell(item: Json): string {
  switch (kindOf(item)) {
    case "number":
      return formatNumber(item as number);
    case "boolean":
      return item ? "true" : "false";
    case "null":
      return "";
    case "string":
      return (item as string).replace(/[\\\t\n\r]/g, (char) =>
        char === "\\" ? "\\\\" : char === "\t" ? "\\t" : char === "\n" ? "\\n" : "\\r",
      );
    default:
      return fail(`${describe(item)} is not valid in a tsv row`);
  }
}

function shellWord(item: Json): string {
  if (typeof item === "string") return `'${item.replace(/'/g, "'\\''")}'`;
  if (item === null || typeof item !== "object") return toText(item);
  return fail(`${describe(item)} can not be escaped for shell`);
}

export const FORMATS: Record<string, Format> = {
  text: toText,
  json: toJsonText,
  html: (value) => toText(value).replace(/[<>&'"]/g, (char) => HTML[char] as string),
  uri,
  csv: (value) => row(value, "csv", csvCell, ","),
  tsv: (value) => row(value, "tsv", tsvCell, "\t"),
  sh: (value) => (Array.isArray(value) ? value.map(shellWord).join(" ") : shellWord(value)),
  base64: (value) => Buffer.from(toText(value), "utf8").toString("base64"),
};

export function applyFormat(format: Format, value: Json): string {
  const text = format(value);
  chargeBuilt(text.length);
  return text;
}
