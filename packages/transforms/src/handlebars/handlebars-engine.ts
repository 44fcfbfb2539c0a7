import Handlebars from "handlebars";
import { createLruCache } from "../lru-cache.js";
import { exceedsBytes, outputTooLargeMessage, parseRenderedOutput } from "../output.js";
import type { TransformOutcome } from "../types.js";
import { createRenderBudget, type RenderBudget, RenderBudgetExceeded } from "./render-budget.js";
import { describeError, prepareTemplate } from "./rewrite-template.js";
import { KNOWN_HELPERS, registerTemplateHelpers } from "./template-helpers.js";

export interface HandlebarsEngineOptions {
  cacheSize: number;
  maxOutputBytes: number;
  maxIterations: number;
}

export interface HandlebarsEngine {
  render(template: string, payload: unknown): TransformOutcome;
}

type Compiled = { ok: true; render: Handlebars.TemplateDelegate } | { ok: false; error: string };

/** Nested loops count their body once per level, so the counted total may exceed the output. */
const CHAR_BUDGET_FACTOR = 8;

const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowCallsToHelperMissing: false,
};

/**
 * Renders Handlebars templates on the calling thread. Templates are compiled once (LRU cache) in
 * a private environment: prototype access off, only known helpers, no partials or decorators, and
 * a budget on loop iterations and written characters so a template cannot stall the event loop.
 */
export function createHandlebarsEngine(options: HandlebarsEngineOptions): HandlebarsEngine {
  const env = Handlebars.create();
  let active: RenderBudget | undefined;
  registerTemplateHelpers(env, () => active);
  const cache = createLruCache<string, Compiled>(options.cacheSize);

  function compile(template: string): Compiled {
    const cached = cache.get(template);
    if (cached) return cached;
    const prepared = prepareTemplate(template);
    let compiled: Compiled;
    if (!prepared.ok) {
      compiled = prepared;
    } else {
      try {
        const render = env.compile(prepared.program, {
          knownHelpers: KNOWN_HELPERS,
          knownHelpersOnly: true,
          noEscape: true,
          preventIndent: true,
        });
        compiled = { ok: true, render };
      } catch (error) {
        compiled = { ok: false, error: `handlebars compile error: ${describeError(error)}` };
      }
    }
    cache.set(template, compiled);
    return compiled;
  }

  return {
    render(template, payload) {
      const compiled = compile(template);
      if (!compiled.ok) return compiled;
      active = createRenderBudget(
        options.maxIterations,
        options.maxOutputBytes * CHAR_BUDGET_FACTOR,
      );
      let text: string;
      try {
        // Handlebars compiles lazily: the first render also compiles, so errors surface here too.
        text = compiled.render(payload, RUNTIME_OPTIONS);
      } catch (error) {
        if (error instanceof RenderBudgetExceeded) return { ok: false, error: error.message };
        return { ok: false, error: `handlebars error: ${describeError(error)}` };
      } finally {
        active = undefined;
      }
      if (exceedsBytes(text, options.maxOutputBytes)) {
        return { ok: false, error: outputTooLargeMessage(options.maxOutputBytes) };
      }
      return { ok: true, output: parseRenderedOutput(text) };
    },
  };
}
