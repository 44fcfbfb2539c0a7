import { DEFAULT_BINDING, moduleAsFunctionBody } from "./module-rewrite.mjs";

/** Runs a rewritten body as the sandbox does (a strict function, called anew per call). */
function evaluate(body: string): unknown {
  return new Function(`"use strict";\n${body}`)();
}

function rewritten(code: string): string {
  const body = moduleAsFunctionBody(code);
  if (body === undefined) throw new Error(`not rewritten: ${code}`);
  return body;
}

describe("moduleAsFunctionBody", () => {
  it.each<[string, string, unknown]>([
    [
      "a named default function (hoisted, as in a module)",
      "const x = twice(2);\nexport default function transform(p) { return p * x; }\nfunction twice(n) { return n * 2; }",
      12,
    ],
    ["an anonymous default arrow", "export default (p) => p + 1;", 4],
    ["a default expression without a semicolon", "const k = 5\nexport default (p) => p * k", 15],
    ["an anonymous default function declaration", "export default function (p) { return -p; }", -3],
    ["an async default", "export default async (p) => p", Promise],
    ["a default export by specifier", "const t = (p) => p * 10;\nexport { t as default };", 30],
    [
      "a default export by string specifier",
      'const t = (p) => p * 7;\nexport { t as "default" };',
      21,
    ],
    [
      "named exports beside the default",
      "export const base = 100;\nexport function add(p) { return base + p; }\nexport default add;",
      103,
    ],
    [
      "a default class (called, it throws like the module's would)",
      "export default class { }",
      TypeError,
    ],
    [
      "await and arguments inside functions",
      "export default async function (p) { return arguments.length + (await p); }",
      Promise,
    ],
  ])("%s", (_name, code, expected) => {
    const exported = evaluate(rewritten(code)) as (p: number) => unknown;
    expect(typeof exported).toBe("function");
    if (expected === TypeError) {
      expect(() => exported(3)).toThrow(TypeError);
    } else if (expected === Promise) {
      expect(exported(3)).toBeInstanceOf(Promise);
    } else {
      expect(exported(3)).toBe(expected);
    }
  });

  it("gives an anonymous default export the name a module gives it", () => {
    for (const code of [
      "export default function () {}",
      "export default () => 1;",
      "export default class {}",
      "export default (async function () {});",
    ]) {
      expect((evaluate(rewritten(code)) as { name: string }).name).toBe("default");
    }
    expect(
      (evaluate(rewritten("export default function named() {}")) as { name: string }).name,
    ).toBe("named");
  });

  it("returns undefined as the default export of a module without one", () => {
    expect(evaluate(rewritten("export const x = 1;"))).toBeUndefined();
  });

  it("runs the top level anew on every evaluation", () => {
    const body = rewritten(
      "let calls = 0;\nexport default function transform() { calls += 1; return calls; }",
    );
    expect((evaluate(body) as () => number)()).toBe(1);
    expect((evaluate(body) as () => number)()).toBe(1);
  });

  it("keeps every line where it was", () => {
    const code =
      "export const a = 1;\nexport default function t() {\n  return a;\n}\nexport {\n  a as b,\n};\nconst last = 2;";
    const body = rewritten(code);
    const lines = body.split("\n");
    expect(lines[2]).toBe("  return a;");
    expect(lines[7]).toBe("const last = 2;");
  });

  it.each<[string, string]>([
    ["an import", "import fs from 'node:fs';\nexport default () => fs;"],
    ["a re-export", "export * from 'x';"],
    ["a named re-export", "export { a as default } from 'x';"],
    ["import.meta", "export default () => import.meta.url;"],
    ["a dynamic import", "export default () => import('x');"],
    ["top-level await", "const v = await Promise.resolve(1);\nexport default () => v;"],
    ["top-level for await", "for await (const x of []) {}\nexport default () => 1;"],
    ["arguments at the top level", "const a = () => arguments;\nexport default a;"],
    ["a hashbang", "#!/usr/bin/env node\nexport default () => 1;"],
    ["our own binding name", `const ${DEFAULT_BINDING} = 1;\nexport default () => 1;`],
    ["a syntax error", "export default function ( {"],
  ])("leaves %s as a module", (_name, code) => {
    expect(moduleAsFunctionBody(code)).toBeUndefined();
  });
});
