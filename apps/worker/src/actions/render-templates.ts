import { compileJsonTemplate, renderJsonTemplate } from "@hookflow/domain";
import type { TransformPort } from "@hookflow/pipeline";
import type { ActionTemplateContext } from "./action-types.js";

export type Rendered = { ok: true; text: string } | { ok: false; error: string };

/** JSON templates render at most this many characters (the payload limit). */
export interface TemplateRenderer {
  /** A Handlebars template, run in the transform sandbox with its limits. */
  text: (template: string, context: ActionTemplateContext, ids: RenderIds) => Promise<Rendered>;
  /** A JSON template (docs/decisions.md, JSON templates): always valid JSON. */
  json: (template: string, context: ActionTemplateContext) => Rendered;
}

export interface RenderIds {
  eventId: string;
  webhookId: string;
  nodeId: string;
  nodeName: string;
}

const PLAIN = /^[^{}]*$/;

export function createTemplateRenderer(options: {
  transform: TransformPort;
  maxChars: number;
}): TemplateRenderer {
  return {
    text: async (template, context, ids) => {
      // Text without braces needs no engine.
      if (PLAIN.test(template)) return { ok: true, text: template };
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
