import { getPath } from "../delivery/payload-filter.js";

/**
 * JSON templates (additional targets' `payloadTransform`, HTTP action bodies, document
 * templates): the template is JSON; a string value that is exactly `{{path}}` becomes the value
 * at `path` with its own JSON type, and a `{{path}}` inside a longer string becomes that value's
 * text. Keys are literal. The output is always valid JSON, whatever the context holds, and its
 * size is bounded (see docs/decisions.md, "JSON templates"). Pure: no I/O.
 */

/** A `{{ path }}` placeholder: anything but braces between the double braces. */
const PLACEHOLDER = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const EXACT = /^\{\{\s*([^{}\s]+)\s*\}\}$/;

export const JSON_TEMPLATE_MAX_CHARS = 65_536;
export const JSON_TEMPLATE_MAX_DEPTH = 64;

type Segment = { text: string } | { path: string };

/** A template parsed once and rendered many times. */
export type TemplateNode =
  | { kind: "literal"; json: string }
  | { kind: "value"; path: string }
  | { kind: "text"; segments: Segment[] }
  | { kind: "array"; items: TemplateNode[] }
  | { kind: "object"; entries: { keyJson: string; value: TemplateNode }[] };

export type CompileJsonTemplateResult =
  | { ok: true; template: TemplateNode }
  | { ok: false; reason: string };

export type RenderJsonTemplateResult =
  | { ok: true; json: string }
  | { ok: false; reason: "too_large"; limit: number };

/** Parses and checks a template; the reason names what is wrong, for a 400 at write time. */
export function compileJsonTemplate(source: string): CompileJsonTemplateResult {
  if (source.length > JSON_TEMPLATE_MAX_CHARS) {
    return { ok: false, reason: `is longer than ${JSON_TEMPLATE_MAX_CHARS} characters` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    return { ok: false, reason: "is not valid JSON" };
  }
  const template = compileValue(parsed, 0);
  if (template === undefined) {
    return { ok: false, reason: `nests more than ${JSON_TEMPLATE_MAX_DEPTH} levels deep` };
  }
  return { ok: true, template };
}

function compileValue(value: unknown, depth: number): TemplateNode | undefined {
  if (depth > JSON_TEMPLATE_MAX_DEPTH) return undefined;
  if (typeof value === "string") return compileString(value);
  if (Array.isArray(value)) {
    const items: TemplateNode[] = [];
    for (const item of value) {
      const node = compileValue(item, depth + 1);
      if (node === undefined) return undefined;
      items.push(node);
    }
    return { kind: "array", items };
  }
  if (typeof value === "object" && value !== null) {
    const entries: { keyJson: string; value: TemplateNode }[] = [];
    for (const [key, item] of Object.entries(value)) {
      const node = compileValue(item, depth + 1);
      if (node === undefined) return undefined;
      entries.push({ keyJson: JSON.stringify(key), value: node });
    }
    return { kind: "object", entries };
  }
  return { kind: "literal", json: JSON.stringify(value) };
}

function compileString(value: string): TemplateNode {
  const exact = EXACT.exec(value);
  if (exact?.[1] !== undefined) return { kind: "value", path: exact[1] };
  const segments: Segment[] = [];
  let last = 0;
  for (const match of value.matchAll(PLACEHOLDER)) {
    const path = match[1];
    if (path === undefined) continue;
    if (match.index > last) segments.push({ text: value.slice(last, match.index) });
    segments.push({ path });
    last = match.index + match[0].length;
  }
  if (segments.length === 0) return { kind: "literal", json: JSON.stringify(value) };
  if (last < value.length) segments.push({ text: value.slice(last) });
  return { kind: "text", segments };
}

/** The text a value takes inside a longer string: strings as they are, absent and null empty. */
export function templateText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value) ?? "";
}

class TooLarge extends Error {}

/** Collects output and stops the render once it would pass its budget. */
class BoundedOutput {
  private readonly parts: string[] = [];
  private size = 0;
  constructor(private readonly maxChars: number) {}

  /** Fails when `pending` more characters would not fit. */
  check(pending: number): void {
    if (this.size + pending > this.maxChars) throw new TooLarge();
  }

  push(text: string): void {
    this.check(text.length);
    this.size += text.length;
    this.parts.push(text);
  }

  text(): string {
    return this.parts.join("");
  }
}

/**
 * Renders a compiled template against `context` (paths are dot notation with numeric array
 * indexes, looked up from the context's root). Output past `maxChars` characters stops the
 * render (`too_large`), so a template that repeats a large value cannot multiply it without bound.
 */
export function renderJsonTemplate(
  template: TemplateNode,
  context: unknown,
  maxChars: number,
): RenderJsonTemplateResult {
  const out = new BoundedOutput(maxChars);
  try {
    renderNode(template, context, out);
  } catch (error) {
    if (error instanceof TooLarge) return { ok: false, reason: "too_large", limit: maxChars };
    throw error;
  }
  return { ok: true, json: out.text() };
}

function renderNode(node: TemplateNode, context: unknown, out: BoundedOutput): void {
  switch (node.kind) {
    case "literal":
      out.push(node.json);
      return;
    case "value": {
      const { found, value } = getPath(context, node.path);
      out.push(found && value !== undefined ? (JSON.stringify(value) ?? "null") : "null");
      return;
    }
    case "text": {
      let text = "";
      for (const segment of node.segments) {
        text +=
          "text" in segment ? segment.text : templateText(getPath(context, segment.path).value);
        // A string built from many large values stops before it is escaped.
        out.check(text.length);
      }
      out.push(JSON.stringify(text));
      return;
    }
    case "array":
      out.push("[");
      node.items.forEach((item, index) => {
        if (index > 0) out.push(",");
        renderNode(item, context, out);
      });
      out.push("]");
      return;
    case "object":
      out.push("{");
      node.entries.forEach((entry, index) => {
        out.push(index > 0 ? `,${entry.keyJson}:` : `${entry.keyJson}:`);
        renderNode(entry.value, context, out);
      });
      out.push("}");
      return;
  }
}
