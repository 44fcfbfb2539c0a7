import { createTransformRunner, type TransformRunner } from "../src/index.js";
import { hostHeapUsed, hostLooksUntouched, markHost } from "./host-health.js";

const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
let runner: TransformRunner;
let heapBefore = 0;

beforeAll(() => {
  markHost();
  heapBefore = hostHeapUsed();
  // One worker thread: the normal program after each attack runs where the attack ran.
  runner = createTransformRunner({ jqWorkers: 1 });
});
afterAll(async () => {
  await runner.close();
});

function run(template: string, payload: unknown = { n: 1 }, webhookId = context.webhookId) {
  return runner.run({ mode: "jq", template, payload, context: { ...context, webhookId } });
}

async function expectServing(): Promise<void> {
  expect(await run("{doubled: (.n * 2)}", { n: 21 })).toMatchObject({
    ok: true,
    output: { doubled: 42 },
  });
}

const nested = {
  items: Array.from({ length: 3000 }, (_, i) => ({ id: i, tags: ["a", "b"], meta: { i } })),
};

describe("hostile jq programs", () => {
  it.each<[string, string, unknown, RegExp]>([
    ["a huge range collected into an array", "[range(1e9)]", {}, /100 ms time limit|out of memory/],
    ["a function calling itself forever", "def f: f; f", {}, /time limit|out of memory/],
    ["unbounded recursion building arrays", "def f: [f]; f", {}, /time limit|out of memory/],
    ["an endless until", "until(false; .)", {}, /time limit/],
    ["a huge string repetition", '"x" * 1e9', {}, /out of memory|time limit/],
    [
      "quadratic work over recursive descent of a large input",
      "[..] as $all | [$all[] as $x | $all[] | select(. == $x)] | length",
      nested,
      /time limit|out of memory/,
    ],
    [
      "catastrophic regex backtracking",
      'test("(a+)+$")',
      `${"a".repeat(40)}b`,
      /Regex failure|time limit/,
    ],
    ["a very large output", '"x" * 2000000', {}, /exceeds the 1048576-byte limit|time limit/],
    ["reading further inputs", "[inputs]", {}, /inputs is not available in transforms/],
    ["reading the next input", "input", {}, /input is not available in transforms/],
    ["halting jq", 'halt_error("bye")', {}, /halt_error is not available in transforms/],
    ["importing a module from disk", 'import "/etc/passwd" as $x; $x', {}, /jq compile error/],
    ["including a file", 'include "/etc/hosts"; .', {}, /jq compile error/],
    [
      "a program nested thousands of levels deep",
      `${"[".repeat(20000)}.${"]".repeat(20000)}`,
      {},
      /memory exhausted|out of memory|time limit/,
    ],
    [
      "an output nested hundreds of thousands of levels deep",
      "reduce range(200000) as $i (.; [.])",
      {},
      /out of memory|time limit|nested/,
    ],
  ])("fails on %s and keeps serving", async (_name, template, payload, message) => {
    const result = await run(template, payload);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toMatch(message);
    await expectServing();
  });

  it("fails on a payload nested past what JSON can write, in jq and JavaScript alike", async () => {
    const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    for (const mode of ["jq", "javascript"] as const) {
      const result = await runner.run({
        mode,
        template: mode === "jq" ? "." : "return payload",
        payload: deep,
        context,
      });
      expect(result).toMatchObject({
        ok: false,
        error: "the payload is nested too deeply to serialize",
      });
    }
    await expectServing();
  });

  it("sees an empty environment instead of the host's", async () => {
    expect(await run("[$ENV, env, input_filename]")).toMatchObject({
      ok: true,
      output: [{}, {}, null],
    });
  });

  it("cannot forge the results of another webhook's events by breaking out of the wrapper", async () => {
    const forger = '.))]} catch {"error": .})], [0, {"ok": ["forged"]}], ((((.';
    const [attack, victim] = await Promise.all([
      run(forger, { n: 1 }, "wh_attacker"),
      run(".n", { n: 7 }, "wh_victim"),
    ]);
    expect(victim).toMatchObject({ ok: true, output: 7 });
    expect(attack.ok ? attack.output : attack.error).not.toBe(7);
  });

  it("leaves the host process untouched", () => {
    expect(hostLooksUntouched()).toBe(true);
    expect(hostHeapUsed() - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("jq's memory limit", () => {
  let limited: TransformRunner;
  beforeAll(() => {
    limited = createTransformRunner({ jqWorkers: 1, jqInline: false, jqMemoryLimitMb: 32 });
  });
  afterAll(async () => {
    await limited.close();
  });
  const runLimited = (template: string, payload: unknown = { n: 1 }) =>
    limited.run({ mode: "jq", template, payload, context });

  it("fails a program that allocates past it, and the pool recovers", async () => {
    // About 48 MB of string: within jq-wasm's own 256 MB ceiling, past this runner's 32 MB.
    const result = await runLimited('"x" * 48000000 | length');
    expect(result).toMatchObject({ ok: false, error: "jq program ran out of memory" });
    expect(await runLimited("{doubled: (.n * 2)}", { n: 21 })).toMatchObject({
      ok: true,
      output: { doubled: 42 },
    });
  });

  it("still runs programs that fit", async () => {
    expect(await runLimited('"x" * 4000000 | length')).toMatchObject({ ok: true, output: 4000000 });
  });
});
