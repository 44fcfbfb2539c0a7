import fc from "fast-check";
import {
  compileJsonTemplate,
  JSON_TEMPLATE_MAX_CHARS,
  JSON_TEMPLATE_MAX_DEPTH,
  renderJsonTemplate,
  type TemplateNode,
  templateText,
} from "./json-template.js";

const MAX = 1_048_576;

function compiled(source: string): TemplateNode {
  const result = compileJsonTemplate(source);
  if (!result.ok) throw new Error(`template did not compile: ${result.reason}`);
  return result.template;
}

function render(source: string, context: unknown, maxChars = MAX): unknown {
  const result = renderJsonTemplate(compiled(source), context, maxChars);
  if (!result.ok) throw new Error("render was too large");
  return JSON.parse(result.json);
}

describe("compileJsonTemplate", () => {
  it("rejects a template that is not JSON", () => {
    expect(compileJsonTemplate("{order: {{id}}}")).toEqual({
      ok: false,
      reason: "is not valid JSON",
    });
  });

  it("rejects a template longer than its limit", () => {
    const result = compileJsonTemplate(JSON.stringify("x".repeat(JSON_TEMPLATE_MAX_CHARS)));
    expect(result.ok).toBe(false);
  });

  it("rejects a template nested deeper than its limit", () => {
    const deep = `${"[".repeat(JSON_TEMPLATE_MAX_DEPTH + 2)}${"]".repeat(JSON_TEMPLATE_MAX_DEPTH + 2)}`;
    expect(compileJsonTemplate(deep)).toEqual({
      ok: false,
      reason: `nests more than ${JSON_TEMPLATE_MAX_DEPTH} levels deep`,
    });
  });
});

describe("renderJsonTemplate", () => {
  const context = {
    payload: { id: 42, name: 'Ada "the first"', tags: ["a", "b"], nested: { ok: true }, n: null },
  };

  it("keeps the JSON type of a value that is exactly one placeholder", () => {
    expect(
      render(
        '{"id":"{{payload.id}}","tags":"{{ payload.tags }}","nested":"{{payload.nested}}","n":"{{payload.n}}"}',
        context,
      ),
    ).toEqual({ id: 42, tags: ["a", "b"], nested: { ok: true }, n: null });
  });

  it("interpolates text inside a longer string, escaping what the value holds", () => {
    expect(render('{"line":"order {{payload.id}} for {{payload.name}}!"}', context)).toEqual({
      line: 'order 42 for Ada "the first"!',
    });
  });

  it("gives null for a missing exact value and empty text for a missing interpolated one", () => {
    expect(render('{"a":"{{payload.missing}}","b":"x{{payload.missing}}y"}', context)).toEqual({
      a: null,
      b: "xy",
    });
  });

  it("writes objects and arrays inside text as their JSON", () => {
    expect(render('"tags={{payload.tags}}"', context)).toBe('tags=["a","b"]');
  });

  it("leaves keys and non-placeholder braces alone", () => {
    expect(render('{"{{payload.id}}":"{{ not a path }}","k":"{x}"}', context)).toEqual({
      "{{payload.id}}": "{{ not a path }}",
      k: "{x}",
    });
  });

  it("stops a template that repeats a large value past the output limit", () => {
    const big = { blob: "x".repeat(10_000) };
    const template = compiled(JSON.stringify(Array.from({ length: 500 }, () => "{{blob}}")));
    expect(renderJsonTemplate(template, big, 100_000)).toEqual({
      ok: false,
      reason: "too_large",
      limit: 100_000,
    });
    const text = compiled(JSON.stringify("{{blob}}".repeat(500)));
    expect(renderJsonTemplate(text, big, 100_000).ok).toBe(false);
  });

  it("does not read inherited properties", () => {
    expect(render('{"a":"{{constructor}}","b":"{{__proto__}}"}', {})).toEqual({ a: null, b: null });
  });
});

describe("JSON templates, properties", () => {
  /** Strings that often hold placeholders, some well formed and some not. */
  const templateString = fc.oneof(
    fc.string(),
    fc
      .tuple(fc.string(), fc.stringMatching(/^[a-z0-9_.]{0,12}$/), fc.string())
      .map(([a, path, b]) => `${a}{{${path}}}${b}`),
    fc.stringMatching(/^[a-z.]{1,8}$/).map((path) => `{{${path}}}`),
  );
  const templateValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      templateString,
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 4 }),
    ),
  })).value;

  it("always renders valid JSON, or stops at its limit, for any template and context", () => {
    fc.assert(
      fc.property(
        templateValue,
        fc.jsonValue(),
        fc.integer({ min: 0, max: 4096 }),
        (t, ctx, max) => {
          const result = compileJsonTemplate(JSON.stringify(t));
          if (!result.ok) return;
          const rendered = renderJsonTemplate(result.template, ctx, max);
          if (rendered.ok) {
            expect(rendered.json.length).toBeLessThanOrEqual(max);
            expect(() => JSON.parse(rendered.json)).not.toThrow();
          } else {
            expect(rendered.reason).toBe("too_large");
          }
        },
      ),
    );
  });

  it("never throws while compiling any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const result = compileJsonTemplate(text);
        expect(typeof result.ok).toBe("boolean");
      }),
    );
  });

  it("carries any JSON value through an exact placeholder unchanged", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = render('{"v":"{{x}}"}', { x: value }) as { v: unknown };
        expect(out.v).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("interpolates any value as its text between literal parts", () => {
    fc.assert(
      fc.property(fc.string(), fc.jsonValue(), fc.string(), (before, value, after) => {
        fc.pre(before + after !== "" && !before.includes("{") && !/[{}]/.test(after));
        const out = render(JSON.stringify(`${before}{{x}}${after}`), { x: value });
        expect(out).toBe(`${before}${templateText(value)}${after}`);
      }),
    );
  });
});
