import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createTransformRunner, type TransformRunner } from "../src/index.js";

// A JavaScript node's calls share one warm, hardened context (built-ins frozen, globals reset
// after each call). Each test below runs the same code twice on the same node, so both calls land
// in the same context: the first tries to leave something behind, the second looks for it.

const context = { eventId: "evt_1", webhookId: "wh_iso", nodeId: "tn_iso" };
let runner: TransformRunner;

beforeAll(() => {
  // One sandbox process, so consecutive calls of a node reach the same warm context.
  runner = createTransformRunner({ jsProcesses: 1 });
});
afterAll(async () => {
  await runner.close();
});

function run(template: string, payload: unknown, nodeId = context.nodeId) {
  return runner.run({ mode: "javascript", template, payload, context: { ...context, nodeId } });
}

describe("JavaScript transforms: no state carries from one call of a node to the next", () => {
  it.each<[string, string, unknown]>([
    ["an implicit global", "if (payload.s) stash = payload.s;", null],
    ["a global property", "if (payload.s) globalThis.stash = payload.s;", null],
    [
      "a global var declared by eval",
      "if (payload.s) (0, eval)('var stash = ' + JSON.stringify(payload.s));",
      null,
    ],
    [
      "a permanent global",
      "if (payload.s) Object.defineProperty(globalThis, 'stash', { value: payload.s, configurable: false });",
      null,
    ],
    [
      "a global getter",
      "if (payload.s) { const s = payload.s; Object.defineProperty(globalThis, 'stash', { get: () => s, configurable: true }); }",
      null,
    ],
    [
      "a new prototype for the global object",
      "if (payload.s) Object.setPrototypeOf(globalThis, { stash: payload.s });",
      null,
    ],
    [
      "a symbol-keyed global",
      "if (payload.s) globalThis[Symbol.for('stash')] = payload.s;\nif (!payload.s) return globalThis[Symbol.for('stash')] ?? null;",
      null,
    ],
    [
      "a promise callback after return",
      "if (payload.s) Promise.resolve().then(() => { globalThis.stash = payload.s; });",
      null,
    ],
  ])("%s", async (_name, attack, expected) => {
    const code = `${attack}\nreturn typeof stash === "undefined" ? null : stash;`;
    expect(await run(code, { s: "s3cr3t" }, `tn_${_name}`)).toMatchObject({ ok: true });
    expect(await run(code, {}, `tn_${_name}`)).toEqual(
      expect.objectContaining({ ok: true, output: expected }),
    );
  });

  it.each<[string, string, string]>([
    [
      "Object.prototype (sloppy)",
      "Object.prototype.stash = payload.s;",
      "return ({}).stash ?? null",
    ],
    [
      "Object.prototype (strict)",
      "'use strict';\nif (payload.s) Object.prototype.stash = payload.s;",
      "return ({}).stash ?? null",
    ],
    [
      "Array.prototype.map",
      "Array.prototype.map = () => payload.s;",
      "return [1].map((n) => n)[0] === 1 ? null : 'changed'",
    ],
    [
      "JSON.stringify",
      "JSON.stringify = () => payload.s;",
      "return JSON.stringify(1) === '1' ? null : 'changed'",
    ],
    [
      "Object.prototype.toString through its setter",
      "Object.prototype.toString = () => payload.s;",
      "return String({}) === '[object Object]' ? null : 'changed'",
    ],
    [
      "Error.prototype.name through its setter",
      "Error.prototype.name = payload.s;",
      "return new Error('x').name === 'Error' ? null : 'changed'",
    ],
    [
      "Error.stackTraceLimit",
      "Error.stackTraceLimit = 0;",
      "return Error.stackTraceLimit === 10 ? null : 'changed'",
    ],
    [
      "Error.prepareStackTrace",
      "Error.prepareStackTrace = () => payload.s;",
      "return typeof Error.prepareStackTrace === 'undefined' ? null : 'changed'",
    ],
    [
      "Intl",
      "Intl.stash = payload.s; Intl.NumberFormat.prototype.format = () => payload.s;",
      "return Intl.stash ?? (new Intl.NumberFormat('en-US').format(1) === '1' ? null : 'changed')",
    ],
    [
      "%TypedArray%.prototype",
      "Object.getPrototypeOf(Int8Array).prototype.stash = payload.s;",
      "return new Int8Array(1).stash ?? null",
    ],
    [
      "the array iterator",
      "Object.getPrototypeOf([][Symbol.iterator]()).next = () => ({ done: true });",
      "return [...[1, 2]].length === 2 ? null : 'changed'",
    ],
    [
      "the generator prototype",
      "Object.getPrototypeOf(function* () {}).prototype.stash = payload.s;",
      "return (function* () {})().stash ?? null",
    ],
    [
      "Function.prototype",
      "Function.prototype.stash = payload.s;",
      "return (() => 1).stash ?? null",
    ],
    ["Math.random", "Math.random = () => 4;", "return Math.random() === 4 ? 'changed' : null"],
    [
      "the function behind the Intl global",
      "Object.getOwnPropertyDescriptor(globalThis, 'Intl').get.stash = payload.s;",
      "return Object.getOwnPropertyDescriptor(globalThis, 'Intl').get.stash ?? null",
    ],
    [
      "the setter behind Object.prototype.toString",
      "const set = Object.getOwnPropertyDescriptor(Object.prototype, 'toString').set; set.stash = payload.s; set.prototype.stash = payload.s;",
      "const set = Object.getOwnPropertyDescriptor(Object.prototype, 'toString').set; return set.stash ?? set.prototype.stash ?? null",
    ],
    [
      "a built-in through the setter called on it",
      "Object.getOwnPropertyDescriptor(Object.prototype, 'toString').set.call(Array.prototype, () => payload.s);",
      "return [1, 2].toString() === '1,2' ? null : 'changed'",
    ],
    ["console", "console.log = () => payload.s;", "return console.log() ?? null"],
  ])("built-ins are frozen: %s", async (name, attack, probe) => {
    // The attack is guarded so the same code probes afterwards; in strict code it throws.
    const code = `if (payload.s) { try { ${attack.replace("'use strict';\n", "")} } catch (error) { if (!(error instanceof TypeError)) throw error; } }\n${probe}`;
    const source = attack.startsWith("'use strict'") ? `'use strict';\n${code}` : code;
    expect(await run(source, { s: "s3cr3t" }, `tn_frozen_${name}`)).toMatchObject({ ok: true });
    expect(await run(source, {}, `tn_frozen_${name}`)).toEqual(
      expect.objectContaining({ ok: true, output: null }),
    );
  });

  it("a call stopped at its time limit loses its context, and what it left with it", async () => {
    const code =
      "if (payload.s) { globalThis.stash = payload.s; for (;;) {} }\nreturn globalThis.stash ?? null;";
    expect(await run(code, { s: "s3cr3t" }, "tn_loop")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/time limit/),
    });
    expect(await run(code, {}, "tn_loop")).toEqual(
      expect.objectContaining({ ok: true, output: null }),
    );
  });

  it("what a call's promise callbacks leave on the global is gone before another node's call", async () => {
    // Nodes share the sandbox process's heap. About 24 MB kept by a late promise callback would
    // leave the next node's call without room for its own 24 MB if it stayed reachable until the
    // hoarding node's next call; the reset after each call makes it garbage at once.
    // Filling 24 MB can take longer than the 50 ms default on a slow, busy machine: this runner
    // has room in time, so only memory decides (the default 32 MB per call).
    const roomy = createTransformRunner({ jsProcesses: 1, jsCpuLimitMs: 10_000 });
    const runRoomy = (template: string, nodeId: string) =>
      roomy.run({ mode: "javascript", template, payload: {}, context: { ...context, nodeId } });
    try {
      const hoard =
        "Promise.resolve().then(() => null).then(() => { globalThis.hoard = new Array(3e6).fill(1.5); });\nreturn 1;";
      expect(await runRoomy(hoard, "tn_hoard")).toMatchObject({ ok: true });
      expect(await runRoomy("return new Array(3e6).fill(2.5).length;", "tn_other")).toEqual(
        expect.objectContaining({ ok: true, output: 3_000_000 }),
      );
    } finally {
      await roomy.close();
    }
  });

  it("a global object that can no longer be extended loses its context", async () => {
    const code = "if (payload.s) Object.preventExtensions(globalThis);\nreturn payload.n ?? null;";
    expect(await run(code, { s: "x" }, "tn_frozen_global")).toMatchObject({ ok: true });
    expect(await run(code, { n: 7 }, "tn_frozen_global")).toEqual(
      expect.objectContaining({ ok: true, output: 7 }),
    );
  });

  it("module state starts over on every call", async () => {
    const code =
      "let calls = 0;\nexport default function transform() { calls += 1; globalThis.seen = (globalThis.seen ?? 0) + 1; return [calls, globalThis.seen]; }";
    expect(await run(code, {}, "tn_module")).toEqual(expect.objectContaining({ output: [1, 1] }));
    expect(await run(code, {}, "tn_module")).toEqual(expect.objectContaining({ output: [1, 1] }));
  });

  it("the function around function-form code keeps nothing", async () => {
    // Sloppy code reaches the function that holds it as arguments.callee; it is frozen.
    const code =
      "if (payload.s) { arguments.callee.stash = payload.s; arguments.callee.prototype.stash = payload.s; }\nreturn arguments.callee.stash ?? arguments.callee.prototype.stash ?? null;";
    expect(await run(code, { s: "s3cr3t" }, "tn_callee")).toMatchObject({ ok: true });
    expect(await run(code, {}, "tn_callee")).toEqual(
      expect.objectContaining({ ok: true, output: null }),
    );
  });

  it("a module's exported function is new on every call", async () => {
    const code =
      "export default function transform(payload) { if (payload.s) transform.stash = payload.s; return transform.stash ?? null; }";
    expect(await run(code, { s: "s3cr3t" }, "tn_module_fn")).toEqual(
      expect.objectContaining({ ok: true, output: "s3cr3t" }),
    );
    expect(await run(code, {}, "tn_module_fn")).toEqual(
      expect.objectContaining({ ok: true, output: null }),
    );
  });

  it("function-form declarations start over on every call", async () => {
    const code = "var n = (typeof n === 'number' ? n : 0) + 1;\nfunction transform() { return n; }";
    expect(await run(code, {}, "tn_fn")).toEqual(expect.objectContaining({ output: 1 }));
    expect(await run(code, {}, "tn_fn")).toEqual(expect.objectContaining({ output: 1 }));
  });
});

describe("JavaScript transforms: ordinary code still works with frozen built-ins", () => {
  it.each<[string, string, unknown]>([
    [
      "an Error subclass that names itself",
      "class ValidationError extends Error { constructor(m) { super(m); this.name = 'ValidationError'; } }\ntry { throw new ValidationError('bad'); } catch (e) { return [String(e), e.name, e instanceof Error]; }",
      ["ValidationError: bad", "ValidationError", true],
    ],
    [
      "an object with its own toString and constructor",
      "'use strict';\nconst o = {}; o.toString = () => 'custom'; o.constructor = 'c'; o.valueOf = () => 5;\nreturn [String(o), o.constructor, o + 1];",
      ["custom", "c", 6],
    ],
    [
      "Object.assign of an object with a toString",
      "return String(Object.assign({}, { toString() { return 'assigned'; } }))",
      "assigned",
    ],
    [
      "an error whose message is set after construction",
      "'use strict';\nconst e = new TypeError(); e.message = 'later'; return e.message",
      "later",
    ],
    [
      "Intl",
      "return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(1234.5)",
      "$1,234.50",
    ],
    [
      "classes with their own prototypes",
      "class A { get x() { return 1; } }\nA.prototype.y = 2;\nreturn new A().x + new A().y",
      3,
    ],
    [
      "async code",
      "export default async (p) => { await null; return [...new Set([1, 1, 2])]; }",
      [1, 2],
    ],
    [
      "regular expressions",
      "return 'a-b-c'.replace(/-/g, '_').match(/(\\w)_(\\w)/).slice(1)",
      ["a", "b"],
    ],
    [
      "Date and Math",
      "return [new Date(0).toISOString(), Math.max(1, 3)]",
      ["1970-01-01T00:00:00.000Z", 3],
    ],
  ])("%s", async (name, code, expected) => {
    for (let call = 0; call < 2; call++) {
      expect(await run(code, {}, `tn_compat_${name}`)).toEqual(
        expect.objectContaining({ ok: true, output: expected }),
      );
    }
  });
});

describe("the sandbox's warm contexts", () => {
  const driver = fileURLToPath(new URL("./fixtures/sandbox-driver.mjs", import.meta.url));
  const options = {
    cpuLimitMs: 50,
    memoryLimitMb: 32,
    maxOutputBytes: 1024 * 1024,
    warmContexts: 2,
  };

  interface DriverCall {
    scope: string;
    code: string;
    input: unknown;
    repeat?: number;
  }
  interface DriverStep {
    result: { ok: boolean; json?: string; error?: string };
    stats: { warmContexts: number; contextsCreated: number };
  }

  async function drive(calls: DriverCall[], overrides: object = {}): Promise<DriverStep[]> {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        "--no-node-snapshot",
        driver,
        JSON.stringify({ ...options, ...overrides }),
        JSON.stringify(calls),
      ],
      { env: {}, maxBuffer: 16 * 1024 * 1024 },
    );
    return JSON.parse(stdout) as DriverStep[];
  }

  it("serves a node's calls from one context, and never shares it with another node or code", async () => {
    const code = "return payload.n * 2";
    const steps = await drive([
      { scope: "wh_1\u0000tn_1", code, input: { n: 1 }, repeat: 5 },
      { scope: "wh_1\u0000tn_1", code, input: { n: 2 } },
      { scope: "wh_2\u0000tn_1", code, input: { n: 3 } },
      { scope: "wh_1\u0000tn_1", code: "return payload.n * 3", input: { n: 3 } },
      { scope: "wh_1\u0000tn_1", code, input: { n: 4 } },
    ]);
    expect(steps.map((step) => step.result.json)).toEqual(["2", "4", "6", "9", "8"]);
    // At most two warm contexts: the third program found both places taken by contexts used
    // moments ago, so its call had a context of its own, discarded after it; wh_1's first
    // program kept its place (no new context on its next call).
    expect(steps.map((step) => step.stats.contextsCreated)).toEqual([1, 1, 2, 3, 3]);
    expect(steps.map((step) => step.stats.warmContexts)).toEqual([1, 1, 2, 2, 2]);
  });

  it("gives the place of an idle context to a new node", async () => {
    const code = "return payload.n";
    const calls = ["a", "b", "c", "a", "b", "c"].map((scope, n) => ({ scope, code, input: { n } }));
    // Idle at once: every place is up for grabs, as in plain LRU (which a cycle of three nodes
    // over two places defeats: every call needs a new context).
    const lru = await drive(calls, { contextIdleMs: 0 });
    expect(lru.map((step) => step.stats.contextsCreated)).toEqual([1, 2, 3, 4, 5, 6]);
    // The default (idle for 10 s): "a" and "b" keep their places, only "c" pays each time.
    const kept = await drive(calls);
    expect(kept.map((step) => step.stats.contextsCreated)).toEqual([1, 2, 3, 3, 3, 4]);
    expect(kept.map((step) => step.result.json)).toEqual(["0", "1", "2", "3", "4", "5"]);
  });

  it("keeps a context whose call added globals, once the reset has deleted them", async () => {
    const code =
      "const before = typeof stash;\nglobalThis.stash = 1; implicit = 2; globalThis[Symbol('s')] = 3;\nreturn before";
    const steps = await drive([{ scope: "s", code, input: {}, repeat: 3 }]);
    expect(steps[0]?.result.json).toBe('"undefined"');
    expect(steps[0]?.stats).toEqual({ warmContexts: 1, contextsCreated: 1 });
  });

  it("replaces a context after 1,000 calls", async () => {
    const steps = await drive([
      { scope: "s", code: "return 1", input: {}, repeat: 999 },
      { scope: "s", code: "return 1", input: {} },
      { scope: "s", code: "return 1", input: {} },
    ]);
    expect(steps.map((step) => step.stats.contextsCreated)).toEqual([1, 1, 2]);
  });

  it("serves a module's calls from one context, its top level run anew each time", async () => {
    const module =
      "let calls = 0;\nif (payload_is_bad()) throw new Error('top');\nfunction payload_is_bad() { return false; }\nexport default (payload) => { calls += 1; if (payload.bad) throw new Error('bad'); return calls; };";
    const steps = await drive([
      { scope: "m", code: module, input: {}, repeat: 3 },
      { scope: "m", code: module, input: { bad: true } },
      { scope: "m", code: module, input: {} },
      {
        scope: "n",
        code: "throw new Error('top');\nexport default () => 1;",
        input: {},
        repeat: 3,
      },
    ]);
    expect(steps.map((step) => step.result.json ?? step.result.error)).toEqual([
      "1",
      "Error: bad",
      "1",
      "Error: top",
    ]);
    // A module's top level throwing is the user's own exception: the context stays.
    expect(steps.map((step) => step.stats.contextsCreated)).toEqual([1, 1, 1, 2]);
  });

  it("evaluates a module it cannot run as a function as a module, on every call", async () => {
    const module = "export default () => typeof import.meta;";
    const steps = await drive([{ scope: "meta", code: module, input: {}, repeat: 3 }]);
    expect(steps[0]?.result).toEqual({ ok: true, json: '"object"' });
    expect(steps[0]?.stats).toEqual({ warmContexts: 1, contextsCreated: 1 });
  });

  it("discards a context after a time limit, a failed reset or a failed module, not after the user's own exception", async () => {
    // import.meta keeps this one a real module (evaluated per call, outside the runner).
    const module = "throw new Error('top' + typeof import.meta);\nexport default () => 1;";
    const steps = await drive(
      [
        { scope: "s", code: "if (payload.loop) for (;;) {}\nreturn 1", input: {} },
        { scope: "s", code: "if (payload.loop) for (;;) {}\nreturn 1", input: { loop: true } },
        { scope: "s", code: "if (payload.loop) for (;;) {}\nreturn 1", input: {} },
        { scope: "t", code: "throw new Error('mine')", input: {}, repeat: 3 },
        {
          scope: "u",
          code: "Object.defineProperty(globalThis, 'kept', { value: 1, configurable: false }); return 1",
          input: {},
          repeat: 2,
        },
        { scope: "v", code: module, input: {}, repeat: 2 },
      ],
      { warmContexts: 4 },
    );
    expect(steps.map((step) => step.result.ok)).toEqual([true, false, true, false, true, false]);
    expect(steps[1]?.result.error).toMatch(/time limit/);
    expect(steps[3]?.result.error).toBe("Error: mine");
    expect(steps[5]?.result.error).toMatch(/topobject/);
    // The time limit costs the context (+1 for the next call); the user's exceptions keep theirs
    // (+1 for three calls); the permanent global fails the reset after each call (+2); the module
    // whose top level throws loses its context after each call (+2), with room to keep it.
    expect(steps.map((step) => step.stats.contextsCreated)).toEqual([1, 1, 2, 3, 5, 7]);
  });
});
