import { compileJsonTemplate, renderJsonTemplate } from "@hookflow/domain";
import type { TransformPort } from "@hookflow/pipeline";
import type { ActionTemplateContext } from "./action-types.js";

type Rendered = { ok: true; text: string } | { ok: false; error: string };

/** JSON templates render at most this many characters (the payload limit). */
export interface TemplateRenderer {
  /** A Handlebars template, run in the transform sandbox with its limits. */
  text: (template: string, context: ActionTemplateContext, ids: RenderIds) => Promise<Rendered>;
  /** A JSON template (docs/decisions.md, JSON templates): always valid JSON. */
  json: (template: string, context: ActionTemplateContext) => Rendered;
}

interface RenderIds {
  eventId: string;
  webhookId: string;
  nodeId: string;
  nodeName: string;
}

const PLAIN = /^[^{}]*$/;
/** `{{ a.b.c }}`: a lookup of identifier segments, nothing else (no helper, block or literal). */
const SIMPLE = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\}\}/g;

/**
 * A template made only of text and simple lookups renders without the engine, with Handlebars'
 * own output for them (no escaping, as the transform runner's Handlebars): absent and null give
 * nothing, objects and arrays their JSON, other values their `String` form; only own properties
 * are read. Undefined when the template holds anything else, or looks into a string or number
 * (then Handlebars renders it). A test compares both on the same templates.
 */
export function renderSimpleTemplate(template: string, context: unknown): string | undefined {
  const rest = template.replace(SIMPLE, "");
  if (rest.includes("{{") || rest.includes("}}") || /\{\{\{|\}\}\}|\\\{\{/.test(template)) {
    return undefined;
  }
  let unsure = false;
  const out = template.replace(SIMPLE, (_match, path: string) => {
    let value: unknown = context;
    for (const segment of path.split(".")) {
      if (value === null || value === undefined) return "";
      // A property of a string or number (`id.length`): Handlebars' own lookup decides.
      if (typeof value !== "object") unsure = true;
      if (unsure || !Object.hasOwn(value, segment)) return "";
      value = (value as Record<string, unknown>)[segment];
    }
    if (value === null || value === undefined) return "";
    // The runner's Handlebars writes objects and arrays as their JSON.
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  });
  return unsure ? undefined : out;
}

export function createTemplateRenderer(options: {
  transform: TransformPort;
  maxChars: number;
}): TemplateRenderer {
  return {
    text: async (template, context, ids) => {
      // Text without braces needs no engine.
      if (PLAIN.test(template)) return { ok: true, text: template };
      const simple = renderSimpleTemplate(template, context);
      if (simple !== undefined) {
        return simple.length > options.maxChars
          ? { ok: false, error: `template: the output passes ${options.maxChars} characters` }
          : { ok: true, text: simple };
      }
      const result = await options.transform.run({
        mode: "handlebars",
        template,
        payload: context,
        context: { ...ids, eventType: context.event.type },
      });
      if (!result.ok) return { ok: false, error: `template: ${result.error}` };
      const text = result.body;
      if (text.length > options.maxChars) {
        return { ok: false, error: `template: the output passes ${options.maxChars} characters` };
      }
      return { ok: true, text };
    },
    json: (template, context) => {
      const compiled = compileJsonTemplate(template);
      if (!compiled.ok) return { ok: false, error: `template ${compiled.reason}` };
      const rendered = renderJsonTemplate(compiled.template, context, options.maxChars);
      if (!rendered.ok) {
        return { ok: false, error: `template: the output passes ${rendered.limit} characters` };
      }
      return { ok: true, text: rendered.json };
    },
  };
}

/** The delivery's response body for templates: parsed JSON when it is JSON, else its text. */
export function parseResponseBody(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
