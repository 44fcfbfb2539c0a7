import { createTransformRunner, type TransformRunner } from "../src/index.js";
import { hostHeapUsed, hostLooksUntouched, markHost } from "./host-health.js";

const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
let runner: TransformRunner;
let heapBefore = 0;

beforeAll(() => {
  markHost();
  heapBefore = hostHeapUsed();
  // One sandbox process: the normal call after each attack runs where the attack ran.
  runner = createTransformRunner({ jsProcesses: 1 });
});
afterAll(async () => {
  await runner.close();
});

function run(template: string, payload: unknown = { n: 1 }, webhookId = context.webhookId) {
  return runner.run({ mode: "javascript", template, payload, context: { ...context, webhookId } });
}

async function expectServing(): Promise<void> {
  expect(await run("return { doubled: payload.n * 2 }", { n: 21 })).toMatchObject({
    ok: true,
    output: { doubled: 42 },
  });
}

describe("hostile JavaScript transforms", () => {
  it.each<[string, string, RegExp]>([
    ["an infinite loop", "while (true) {}", /exceeded the 50 ms time limit/],
    [
      "a loop after an await",
      "export default async () => { await null; for (;;) {} }",
      /time limit/,
    ],
    ["a loop at the top of a module", "for (;;) {}\nexport default () => 1;", /time limit/],
    [
      "a growing allocation",
      "const a = []; for (;;) a.push(new Array(1e4).fill('x'));",
      /memory limit|time limit|crashed/,
    ],
    [
      "a few big arrays",
      "const a = []; for (;;) a.push(new Array(2e6).fill(1.5));",
      /32 MB memory limit|time limit|crashed/,
    ],
    [
      // On a loaded machine the zero-filled allocations can outlast the time limit first.
      "growing typed arrays",
      "const a = []; for (;;) a.push(new Float64Array(1e6));",
      /RangeError: Array buffer allocation failed|time limit/,
    ],
    [
      "one huge array",
      "return new Array(1e9).fill(0).length",
      /memory|time limit|crashed|Invalid array length/,
    ],
    ["a huge spread", "return [...'x'.repeat(2e8)].length", /memory|time limit|crashed/],
    ["a huge string", "return 'x'.repeat(2 ** 30)", /Invalid string length/],
    ["deep recursion", "const f = () => f() + 1; return f()", /Maximum call stack size exceeded/],
    ["reading process", "return process.env", /ReferenceError: process is not defined/],
    [
      "calling require",
      "return require('fs').readFileSync('/etc/passwd', 'utf8')",
      /ReferenceError: require is not defined/,
    ],
    ["a dynamic import", "return import('node:fs')", /not supported|import/i],
    [
      "a static import",
      "import fs from 'node:fs';\nexport default () => fs.readFileSync('/etc/passwd', 'utf8');",
      /imports are not available in transforms/,
    ],
    [
      "the Function constructor",
      "return this.constructor.constructor('return process')().pid",
      /process is not defined/,
    ],
    [
      "a constructor chain to the global",
      "return ({}).constructor.constructor('return this')().process.exit(1)",
      /TypeError/,
    ],
    [
      "Atomics.wait",
      "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return 1",
      /ReferenceError: (Atomics|SharedArrayBuffer) is not defined/,
    ],
    [
      "SharedArrayBuffer",
      "return new SharedArrayBuffer(1024).byteLength",
      /SharedArrayBuffer is not defined/,
    ],
    [
      "WebAssembly",
      "return new WebAssembly.Memory({ initial: 65536 })",
      /WebAssembly is not defined/,
    ],
    ["timers", "setTimeout(() => {}, 1); return 1", /setTimeout is not defined/],
    ["the network", "return fetch('http://127.0.0.1:1/')", /fetch is not defined/],
    ["a promise that never settles", "return new Promise(() => {})", /never settles/],
    ["a very large output", "return 'x'.repeat(2 * 1024 * 1024)", /exceeds the 1048576-byte limit/],
    ["a circular result", "const a = {}; a.self = a; return a", /not JSON-serialisable/],
    ["a BigInt result", "return 10n", /not JSON-serialisable/],
    ["a function result", "return () => 1", /no JSON value/],
    ["a thrown object whose getter loops", "throw { get message() { for (;;) {} } }", /time limit/],
  ])("fails on %s and keeps serving", async (_name, template, message) => {
    const result = await run(template);
    expect(result.ok).toBe(false);
    expect(result.ok ? "" : result.error).toMatch(message);
    await expectServing();
  });

  it("truncates a huge error message", async () => {
    const result = await run("throw new Error('x'.repeat(1e6))");
    expect(result.ok).toBe(false);
    expect(result.ok ? 0 : result.error.length).toBeLessThanOrEqual(2000);
  });

  it("sees only standard JavaScript globals", async () => {
    const result = await run("return Object.getOwnPropertyNames(globalThis)");
    expect(result.ok).toBe(true);
    const names = result.ok ? (result.output as string[]) : [];
    for (const hostName of [
      "process",
      "require",
      "module",
      "Buffer",
      "setTimeout",
      "fetch",
      "console_",
      "ivm",
      "_ivm",
      "WebAssembly",
      "SharedArrayBuffer",
      "Atomics",
      "__hookflow_input",
    ]) {
      expect(names).not.toContain(hostName);
    }
  });

  it("does not carry prototype pollution, replaced builtins or globals into later calls", async () => {
    const attack = await run(
      "Object.prototype.polluted = 'yes'; Array.prototype.map = () => 'hijacked';\nJSON.stringify = () => '\"hijacked\"'; globalThis.stash = payload.secret; return 1",
      { secret: "s3cr3t" },
      "wh_attacker",
    );
    expect(attack).toMatchObject({ ok: true, output: 1 });
    const victim = await run(
      "return { polluted: ({}).polluted ?? null, mapped: [1, 2].map((n) => n * 2), stash: typeof stash }",
      {},
      "wh_victim",
    );
    expect(victim).toMatchObject({
      ok: true,
      output: { polluted: null, mapped: [2, 4], stash: "undefined" },
    });
  });

  it("does not leak the last RegExp match of one event into the next", async () => {
    // The same node and code: both calls run in the node's warm context. RegExp's legacy statics
    // (which remember the context's last match) are removed.
    const code =
      "if (payload.text) /(s3cr3t-\\w+)/.exec(payload.text);\nreturn [RegExp.$1, RegExp.lastMatch, RegExp.input, RegExp['$_'], RegExp.leftContext].map(String)";
    expect(await run(code, { text: "key s3cr3t-abc" })).toMatchObject({ ok: true });
    expect(await run(code, {})).toMatchObject({ ok: true, output: Array(5).fill("undefined") });
    expect(await run("return /(\\d+)/.exec('a 42')[1]")).toMatchObject({ ok: true, output: "42" });
  });

  it("leaves the host process untouched", async () => {
    expect(hostLooksUntouched()).toBe(true);
    // Attacks ran in other processes: the host heap is where it was, give or take test bookkeeping.
    expect(hostHeapUsed() - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });
});
