import { createHandlebarsEngine, GIVE_WAY } from "./handlebars-engine.js";

const engine = createHandlebarsEngine({
  cacheSize: 50,
  maxOutputBytes: 4096,
  maxIterations: 200,
  sliceMs: Number.POSITIVE_INFINITY,
});

describe("handlebars engine", () => {
  it.each([
    [
      "parses a JSON template into JSON",
      '{"id": "{{id}}", "n": {{n}}}',
      { id: "a", n: 2 },
      { id: "a", n: 2 },
    ],
    [
      "keeps quotes, backslashes and newlines of payload strings inside JSON strings",
      '{"name": "{{name}}"}',
      { name: 'O"Brien \\ \n' },
      { name: 'O"Brien \\ \n' },
    ],
    [
      "sends text that is not JSON as a string",
      "Order {{id}} from {{name}}",
      { id: 7, name: 'O"Brien' },
      'Order 7 from O"Brien',
    ],
    [
      "writes values raw with triple braces",
      '{"raw": {{{raw}}}}',
      { raw: "[1,2]" },
      { raw: [1, 2] },
    ],
    [
      "writes JSON with the json helper",
      '{"items": {{json items}}, "none": {{json missing}}}',
      { items: [{ a: 1 }] },
      { items: [{ a: 1 }], none: null },
    ],
    [
      "writes objects as JSON text inside a string",
      '{"text": "{{obj}}"}',
      { obj: { a: "b" } },
      { text: '{"a":"b"}' },
    ],
    [
      "iterates with each and @index",
      '[{{#each items}}{{#if @index}},{{/if}}"{{this}}"{{/each}}]',
      { items: ["x", 'y"'] },
      ["x", 'y"'],
    ],
    [
      "compares with eq and falls back with default",
      '{"big": {{#if (eq size "L")}}true{{else}}false{{/if}}, "who": "{{default who "nobody"}}"}',
      { size: "L" },
      { big: true, who: "nobody" },
    ],
    [
      "detects a JSON template that starts inside a block",
      '{{#if a}}{"a": "{{a}}"}{{else}}{"b": 1}{{/if}}',
      { a: 'x"' },
      { a: 'x"' },
    ],
    ["renders a bare number template as a number", "{{n}}", { n: 42 }, 42],
  ])("%s", (_name, template, payload, expected) => {
    expect(engine.render(template, payload)).toEqual({ ok: true, output: expected });
  });

  it.each([
    ["a syntax error", "{{#if}}", /handlebars syntax error/],
    ["an unknown helper", "{{shout name}}", /unknown helper shout/],
    ["a partial", "{{> secret}}", /partials are not supported/],
    [
      "an inline partial",
      '{{#*inline "p"}}x{{/inline}}{{> p}}',
      /(decorators|partials) are not supported/,
    ],
    ["the log helper", "{{log 'hi'}}", /unknown helper log/],
    [
      "too many loop iterations",
      "{{#each a}}{{#each ../a}}{{#each ../../a}}x{{/each}}{{/each}}{{/each}}",
      /#each iterations/,
    ],
    ["output past the limit", "{{#each a}}{{../big}}{{/each}}", /(budget|limit)/],
  ])("fails on %s", (_name, template, message) => {
    const payload = { a: Array.from({ length: 10 }, (_, i) => i), big: "x".repeat(1000) };
    const result = engine.render(template, payload);
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(message) });
  });

  it("counts what json serializes even when nothing is written", () => {
    const payload = { a: Array.from({ length: 10 }, (_, i) => i), big: "x".repeat(4000) };
    expect(engine.render("{{#each a}}{{#if (json @root)}}{{/if}}{{/each}}", payload)).toEqual({
      ok: false,
      error: "template exceeds its budget of 32768 characters written or serialized",
    });
  });

  it("gives way once a render runs past its slice, and so do the template's later renders", () => {
    const sliced = createHandlebarsEngine({
      cacheSize: 50,
      maxOutputBytes: 1024 * 1024,
      maxIterations: 1_000_000,
      sliceMs: 0,
    });
    const items = Array.from({ length: 100 }, (_, i) => i);
    const template = "{{#each items}}{{this}}{{/each}}";
    expect(sliced.render(template, { items })).toBe(GIVE_WAY);
    expect(sliced.render(template, { items: [] })).toBe(GIVE_WAY);
    expect(sliced.render('{"a": {{a}}}', { a: 1 })).toEqual({ ok: true, output: { a: 1 } });
  });

  it("does not reach prototype properties or methods", () => {
    const result = engine.render(
      '{"a": "{{constructor}}", "b": "{{constructor.name}}", "c": "{{__proto__}}", "d": "{{lookup this "constructor"}}", "e": "{{toString}}"}',
      {},
    );
    expect(result).toEqual({ ok: true, output: { a: "", b: "", c: "", d: "", e: "" } });
  });

  it("reads own properties named like prototype members from JSON payloads", () => {
    const payload = JSON.parse('{"__proto__": {"x": 1}, "constructor": "c"}');
    expect(engine.render('{"c": "{{constructor}}", "x": {{__proto__.x}}}', payload)).toEqual({
      ok: true,
      output: { c: "c", x: 1 },
    });
  });

  it("serves the same template from its cache with other payloads", () => {
    const template = '{"v": "{{v}}"}';
    expect(engine.render(template, { v: 1 })).toEqual({ ok: true, output: { v: "1" } });
    expect(engine.render(template, { v: 2 })).toEqual({ ok: true, output: { v: "2" } });
  });
});
