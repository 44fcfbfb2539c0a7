import { createTransformRunner, type TransformInput, type TransformRunner } from "../src/index.js";

const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
const order = {
  id: "ord_1",
  customer: { name: 'O"Brien' },
  items: [
    { sku: "a", qty: 2 },
    { sku: "b", qty: 3 },
  ],
};

let runner: TransformRunner;
beforeAll(() => {
  runner = createTransformRunner({ jsProcesses: 2, jqWorkers: 2 });
});
afterAll(async () => {
  await runner.close();
});

function input(
  mode: TransformInput["mode"],
  template: string,
  payload: unknown = order,
): TransformInput {
  return { mode, template, payload, context };
}

describe("transform runner", () => {
  it("refuses to replace JSON.stringify, and passes on only a result's parsed value", async () => {
    // Built-ins are frozen: a module's top-level code (strict) fails when it replaces one. The
    // host parses the sandbox's text and serializes the value itself in any case.
    const replaced = await runner.run(
      input(
        "javascript",
        'JSON.stringify = () => "[1,\\n2]";\nexport default function transform() { return [1, 2]; }',
      ),
    );
    expect(replaced).toMatchObject({
      ok: false,
      error: expect.stringMatching(/TypeError: Cannot assign to read only property 'stringify'/),
    });
    const result = await runner.run(
      input("javascript", "export default function transform() { return [1, 2]; }"),
    );
    expect(result).toMatchObject({ ok: true, output: [1, 2] });
    expect(result).not.toHaveProperty("outputJson");
  });

  it("reads the payload from the JSON text it is given instead of serializing it", async () => {
    // A definition keeps the program out of the inline evaluator (which reads the object), so
    // this is jq itself on its thread.
    const result = await runner.run({
      ...input("jq", "def tag: .tag; tag"),
      payload: { tag: "from the object" },
      payloadJson: '{"tag":"from the text"}',
    });
    expect(result).toMatchObject({ ok: true, output: "from the text" });
  });

  it.each<[string, TransformInput, unknown]>([
    [
      "renders a handlebars JSON template",
      input("handlebars", '{"id": "{{id}}", "who": "{{customer.name}}", "n": {{items.length}}}'),
      { id: "ord_1", who: 'O"Brien', n: 2 },
    ],
    [
      "sends a handlebars text template as a string",
      input("handlebars", "Order {{id}}"),
      "Order ord_1",
    ],
    ["runs a jq program and keeps its first output", input("jq", ".items[] | .sku"), "a"],
    [
      "builds an object with jq",
      input("jq", "{id, total: ([.items[].qty] | add)}"),
      { id: "ord_1", total: 5 },
    ],
    [
      "runs the body of a JavaScript transform function",
      input("javascript", "return { id: payload.id, node: context.nodeId }"),
      { id: "ord_1", node: "tn_1" },
    ],
    [
      "runs a JavaScript function named transform",
      input(
        "javascript",
        "function transform(payload, context) {\n  return payload.items.map((item) => item.sku).join(context.webhookId);\n}",
      ),
      "awh_1b",
    ],
    [
      "runs a JavaScript module's default export",
      input(
        "javascript",
        "const double = (n) => n * 2;\nexport default function (payload) {\n  return payload.items.map((item) => double(item.qty));\n}",
      ),
      [4, 6],
    ],
    [
      "awaits an async JavaScript transform",
      input(
        "javascript",
        "export default async (payload) => {\n  const qty = await Promise.resolve(payload.items[0].qty);\n  return { qty };\n}",
      ),
      { qty: 2 },
    ],
    ["lets JavaScript return a primitive", input("javascript", "return payload.items.length"), 2],
  ])("%s", async (_name, transform, expected) => {
    const result = await runner.run(transform);
    expect(result).toMatchObject({ ok: true, output: expected });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it.each<[string, TransformInput, RegExp]>([
    ["a handlebars syntax error", input("handlebars", "{{#if}}"), /handlebars syntax error/],
    [
      "a jq compile error, with the user's line number",
      input("jq", ".id |\n| .x"),
      /^jq compile error: .* at line 2/,
    ],
    ["a jq runtime error", input("jq", ".id | .x"), /^jq error: Cannot index string/],
    ["a jq program without output", input("jq", "empty"), /produced no output/],
    ["a JavaScript syntax error", input("javascript", "return {"), /^SyntaxError/],
    [
      "a JavaScript exception",
      input("javascript", "throw new TypeError('bad order')"),
      /^TypeError: bad order$/,
    ],
    [
      "a rejected JavaScript promise",
      input("javascript", "export default async () => { throw new RangeError('no') }"),
      /^RangeError: no$/,
    ],
    [
      "a JavaScript transform returning nothing",
      input("javascript", "const x = 1;"),
      /no JSON value/,
    ],
    [
      "a JavaScript module without a default export",
      input("javascript", "export const x = 1;"),
      /default/,
    ],
  ])("reports %s as a failed result", async (_name, transform, message) => {
    const result = await runner.run(transform);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toMatch(message);
  });

  it("answers hundreds of concurrent calls of every mode with their own payloads", async () => {
    const calls = Array.from({ length: 300 }, (_, i) => {
      const payload = { n: i, tag: `t${i}` };
      const webhookId = `wh_${i % 3}`;
      const mode = (["handlebars", "jq", "javascript"] as const)[i % 3] ?? "jq";
      const template = {
        handlebars: '{"n": {{n}}, "tag": "{{tag}}"}',
        jq: "{n, tag}",
        javascript: "return { n: payload.n, tag: payload.tag }",
      }[mode];
      return runner.run({ mode, template, payload, context: { ...context, webhookId } });
    });
    const results = await Promise.all(calls);
    results.forEach((result, i) => {
      expect(result).toMatchObject({ ok: true, output: { n: i, tag: `t${i}` } });
    });
  });

  it("fails only the event whose input makes a batched jq program loop", async () => {
    // One worker: the first call runs alone, the next three queue behind it and share a run.
    const single = createTransformRunner({ jqWorkers: 1 });
    try {
      const program = "if .loop then (def f: f; f) else .n end";
      const payloads = [{ n: 1 }, { n: 2 }, { loop: true }, { n: 4 }];
      const results = await Promise.all(
        payloads.map((payload) => single.run(input("jq", program, payload))),
      );
      expect(results.map((result) => (result.ok ? result.output : result.error))).toEqual([
        1,
        2,
        "jq program exceeded the 100 ms time limit",
        4,
      ]);
    } finally {
      await single.close();
    }
  });

  it.each<[string, TransformInput]>([
    ["handlebars", input("handlebars", '{"s": "{{s}}"}', { s: "x".repeat(5000) })],
    ["jq", input("jq", '"x" * 5000')],
    ["javascript", input("javascript", "return 'x'.repeat(5000)")],
  ])("fails %s output larger than the output limit", async (_mode, transform) => {
    const small = createTransformRunner({ maxOutputBytes: 1000, jqWorkers: 1, jsProcesses: 1 });
    try {
      const result = await small.run(transform);
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/exceeds the 1000-byte limit/),
      });
    } finally {
      await small.close();
    }
  });

  it("rejects a payload that is not JSON as a programming error", async () => {
    await expect(runner.run(input("jq", ".", { n: 1n }))).rejects.toThrow(TypeError);
  });

  it("refuses calls after close and fails calls still waiting", async () => {
    const closing = createTransformRunner({ jsProcesses: 1 });
    const pending = closing.run(input("javascript", "return 1"));
    await closing.close();
    expect(await pending).toMatchObject({ ok: false, error: expect.stringMatching(/closed/) });
    await expect(closing.run(input("jq", "."))).rejects.toThrow(/closed/);
  });
});
