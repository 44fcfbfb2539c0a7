import { createTransformRunner, type TransformRunner } from "../src/index.js";

const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
let runner: TransformRunner;

beforeAll(() => {
  runner = createTransformRunner({ offloadThreads: 1 });
});
afterAll(async () => {
  await runner.close();
});

const items = Array.from({ length: 1000 }, (_, i) => ({
  id: i,
  sku: `SKU-${i}`,
  name: `item name ${i}`,
  tags: ["a", "b", "c"],
}));

function render(template: string, payload: unknown) {
  return runner.run({ mode: "handlebars", template, payload, context });
}

describe("work the runner moves off the event loop", () => {
  it("stops a template that re-serializes the payload on every loop turn, off the event loop", async () => {
    const order: string[] = [];
    const running = render("{{#each items}}{{#if (json @root)}}{{/if}}{{/each}}", { items });
    void running.then(() => order.push("render settled"));
    // The event loop turns while the render runs: it gave way to the offload thread.
    await new Promise((resolve) => setImmediate(resolve));
    order.push("event loop turned");
    const result = await running;
    expect(order).toEqual(["event loop turned", "render settled"]);
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/characters written or serialized|time limit/),
    });
  });

  it("renders a legitimately large template on the offload thread", async () => {
    const template =
      '{"items": [{{#each items}}{"id": {{id}}, "sku": "{{sku}}", "name": "{{name}}", "tags": {{{json tags}}}}{{#unless @last}},{{/unless}}{{/each}}]}';
    for (let i = 0; i < 2; i++) {
      const result = await render(template, { items });
      expect(result.ok).toBe(true);
      const output = (result as { output: { items: unknown[] } }).output;
      expect(output.items).toHaveLength(1000);
      expect(output.items[999]).toEqual({
        id: 999,
        sku: "SKU-999",
        name: "item name 999",
        tags: ["a", "b", "c"],
      });
    }
  });

  it("matches patterns off the event loop, answering what cannot run", async () => {
    const result = await runner.matchPatterns([
      { source: "^a+$", value: "a".repeat(100_000) },
      { source: "^(a|a)*$", value: `${"a".repeat(100_000)}!` },
      { source: "(a)\\1", value: "aa" },
    ]);
    expect(result).toEqual({
      ok: true,
      results: [true, false, expect.stringMatching(/not supported by the linear-time engine/)],
    });
  });

  it("stops pattern matching past its time limit and keeps serving", async () => {
    // Linear, but this pattern defeats RE2's DFA: about 1 µs per character and instruction.
    let seed = 1;
    let text = "c";
    while (text.length < 400_000) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      text += seed < 1073741824 ? "a" : "b";
    }
    const result = await runner.matchPatterns([{ source: "a[ab]{999}c", value: text }]);
    expect(result).toEqual({ ok: false, error: "pattern matching exceeded the 100 ms time limit" });
    expect(await runner.matchPatterns([{ source: "^b", value: "bb" }])).toEqual({
      ok: true,
      results: [true],
    });
  });
});
