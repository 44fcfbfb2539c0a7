import Handlebars from "handlebars";
import { createLruCache } from "../lru-cache.js";
import { exceedsBytes, outputTooLargeMessage, parseRenderedOutput } from "../output.js";
import type { TransformOutcome } from "../types.js";
import {
  createRenderBudget,
  InlineSliceSpent,
  type RenderBudget,
  RenderBudgetExceeded,
} from "./render-budget.js";
import { describeError, prepareTemplate } from "./rewrite-template.js";
import { KNOWN_HELPERS, registerTemplateHelpers } from "./template-helpers.js";

export interface HandlebarsEngineOptions {
  cacheSize: number;
  maxOutputBytes: number;
  maxIterations: number;
  /**
   * How long a render may hold the calling thread before it gives way (`GIVE_WAY`), so the
   * runner can render it again off the event loop; Infinity where nothing waits on the thread.
   */
  sliceMs: number;
}

/** The render ran past its slice: run it where it can be stopped (a worker thread). */
export const GIVE_WAY = "give_way";

export interface HandlebarsEngine {
  render(template: string, payload: unknown): TransformOutcome | typeof GIVE_WAY;
}

type Compiled =
  /** `offThread`: a render of it gave way once; later ones skip the calling thread. */
  | { ok: true; render: Handlebars.TemplateDelegate; offThread: boolean }
  | { ok: false; error: string };

/** Nested loops count their body once per level, so the counted total may exceed the output. */
const CHAR_BUDGET_FACTOR = 8;

const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
  allowCallsToHelperMissing: false,
};

/**
 * Renders Handlebars templates on the calling thread. Templates are compiled once (LRU cache) in
 * a private environment: prototype access off, only known helpers, no partials or decorators, a
 * budget on loop iterations and written or serialized characters, and a slice of the calling
 * thread's time: a render that runs past it gives way, and so do the template's later renders.
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
        compiled = { ok: true, render, offThread: false };
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
      if (compiled.offThread) return GIVE_WAY;
      active = createRenderBudget({
        maxIterations: options.maxIterations,
        maxChars: options.maxOutputBytes * CHAR_BUDGET_FACTOR,
        sliceMs: options.sliceMs,
      });
      let text: string;
      try {
        // Handlebars compiles lazily: the first render also compiles, so errors surface here too.
        text = compiled.render(payload, RUNTIME_OPTIONS);
      } catch (error) {
        if (error instanceof InlineSliceSpent) {
          compiled.offThread = true;
          return GIVE_WAY;
        }
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
