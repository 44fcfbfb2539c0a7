import Handlebars from "handlebars";
import type { RenderBudget } from "./render-budget.js";
import { OUTPUT_HELPER, type OutputKind } from "./rewrite-template.js";

type HandlebarsEnv = ReturnType<typeof Handlebars.create>;

/** Helpers offered to transform templates, besides `if`, `unless`, `each`, `with`, `lookup`. */
const TEMPLATE_HELPERS = ["json", "eq", "ne", "default"] as const;

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (value instanceof Handlebars.SafeString) return value.toString();
  if (typeof value === "object") return JSON.stringify(value) ?? "";
  return String(value);
}

function escapeJsonContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * Registers the transform helpers on a private Handlebars environment. `budget()` returns the
 * budget of the render in progress (renders are synchronous, so there is one at a time).
 */
export function registerTemplateHelpers(
  env: HandlebarsEnv,
  budget: () => RenderBudget | undefined,
): void {
  env.unregisterHelper("log");
  env.registerHelper(OUTPUT_HELPER, (value: unknown, kind: OutputKind) => {
    const text = formatValue(value);
    const written =
      kind === "json" && !(value instanceof Handlebars.SafeString) ? escapeJsonContent(text) : text;
    budget()?.write(written.length);
    return written;
  });
  env.registerHelper("json", (value: unknown) => {
    // Serializing is the costly part of `json`: counted even when the text is never written.
    const text = JSON.stringify(value ?? null) ?? "null";
    budget()?.write(text.length);
    return new Handlebars.SafeString(text);
  });
  env.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  env.registerHelper("ne", (a: unknown, b: unknown) => a !== b);
  env.registerHelper("default", (value: unknown, fallback: unknown) =>
    value === null || value === undefined || value === "" ? fallback : value,
  );

  const builtinEach = env.helpers.each as Handlebars.HelperDelegate;
  env.registerHelper("each", function (this: unknown, context: unknown, options) {
    const body = options.fn;
    const counted: Handlebars.HelperOptions = {
      ...options,
      fn: (item: unknown, frame?: Handlebars.RuntimeOptions) => {
        const current = budget();
        current?.iterate();
        const written = body(item, frame);
        current?.write(written.length);
        return written;
      },
    };
    return builtinEach.call(this, context, counted);
  });

  // Every helper call is a step of the render's budget (the clock of an inline render).
  for (const [name, helper] of Object.entries(env.helpers)) {
    const original = helper as (...args: unknown[]) => unknown;
    env.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      budget()?.step();
      return original.apply(this, args);
    });
  }
}

/** Helpers templates may call; Handlebars' own `log` and the missing-helper hooks are not. */
export const KNOWN_HELPERS: Record<string, boolean> = {
  ...Object.fromEntries(
    [OUTPUT_HELPER, ...TEMPLATE_HELPERS, "if", "unless", "each", "with", "lookup"].map((name) => [
      name,
      true,
    ]),
  ),
  log: false,
  helperMissing: false,
  blockHelperMissing: false,
};
