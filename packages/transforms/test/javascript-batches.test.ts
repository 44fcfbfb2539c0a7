import { readdirSync, readFileSync } from "node:fs";
import { createTransformRunner, type TransformRunner } from "../src/index.js";

// One sandbox process. Of calls submitted together, the first leaves at once, alone; the others
// wait for it and then leave in one message (a batch), so each test below mixes its hostile call
// into a batch of ordinary ones.
let runner: TransformRunner;

beforeAll(() => {
  runner = createTransformRunner({ jsProcesses: 1 });
});
afterAll(async () => {
  await runner.close();
});

function run(template: string, n: number) {
  return runner.run({
    mode: "javascript",
    template,
    payload: { n },
    context: { eventId: `evt_${n}`, webhookId: "wh_1", nodeId: "tn_1" },
  });
}

const ORDINARY = [
  "return { doubled: payload.n * 2 }",
  "export default function transform(payload) { return { doubled: payload.n * 2 }; }",
  "export default async (payload) => { await null; return { doubled: payload.n * 2 }; }",
];

/** Ordinary calls around one hostile call, all submitted in the same tick. */
async function mixedBatch(hostile: string) {
  const ordinary = Array.from({ length: 12 }, (_, n) => run(ORDINARY[n % 3] as string, n));
  const attack = run(hostile, 99);
  const more = Array.from({ length: 12 }, (_, i) => run(ORDINARY[i % 3] as string, 12 + i));
  return { attack: await attack, ordinary: await Promise.all([...ordinary, ...more]) };
}

function expectCorrect(results: Awaited<ReturnType<typeof run>>[]): void {
  results.forEach((result, n) => {
    expect(result).toMatchObject({ ok: true, output: { doubled: n * 2 } });
  });
}

/** The sandbox processes this (test) process started. */
function sandboxPids(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      if (ppid === process.pid && cmdline.includes("sandbox-host.mjs")) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describe("batches of JavaScript calls", () => {
  beforeEach(async () => {
    expect(await run(ORDINARY[0] as string, 1)).toMatchObject({ ok: true, output: { doubled: 2 } });
  });

  it.each<[string, string, RegExp]>([
    ["an infinite loop", "while (true) {}", /exceeded the 50 ms time limit/],
    [
      "an allocation past the memory limit",
      "const a = []; for (;;) a.push(new Array(2e6).fill(1.5));",
      /32 MB memory limit|time limit|crashed/,
    ],
    ["one huge array", "return new Array(1e9).fill(0).length", /memory|time limit|crashed/],
    ["a huge spread", "return [...'x'.repeat(2e8)].length", /memory|time limit|crashed/],
  ])(
    "fails only the call with %s, not the others of its batch",
    async (_name, hostile, message) => {
      const { attack, ordinary } = await mixedBatch(hostile);
      expect(attack.ok).toBe(false);
      expect(attack.ok ? "" : attack.error).toMatch(message);
      expectCorrect(ordinary);
    },
  );

  it("runs every call of a batch again when its sandbox process is killed mid-batch", async () => {
    const [before] = sandboxPids();
    expect(before).toBeDefined();
    // The first call leaves alone; the others wait and leave together the moment it is answered,
    // before the code after its await runs.
    const first = run(ORDINARY[0] as string, 0);
    const calls = Array.from({ length: 16 }, (_, n) => run(ORDINARY[n % 3] as string, n));
    expect(await first).toMatchObject({ ok: true, output: { doubled: 0 } });
    process.kill(before as number, "SIGKILL");
    expectCorrect(await Promise.all(calls));
    expect(sandboxPids()).not.toContain(before);
  });
});

describe("a node's home sandbox process", () => {
  it("lets another process take a node's call when its home stays busy", async () => {
    // No gather window: the loop must go alone at once, not wait to share a batch with the call
    // that follows it (a gathered batch runs its calls one after another). A 200 ms limit keeps
    // the home busy for 400 ms, far past the 25 ms after which another process takes the quick
    // call, even on a machine loaded by other suites.
    const twoProcesses = createTransformRunner({
      jsProcesses: 2,
      jsGatherMs: 0,
      jsCpuLimitMs: 200,
    });
    const call = (template: string, n: number) =>
      twoProcesses.run({
        mode: "javascript",
        template,
        payload: { n },
        context: { eventId: `evt_${n}`, webhookId: "wh_home", nodeId: "tn_home" },
      });
    try {
      // Both processes start on first use; make sure both are serving before the race below.
      await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          twoProcesses.run({
            mode: "javascript",
            template: "return payload.n",
            payload: { n },
            context: { eventId: `evt_w${n}`, webhookId: `wh_w${n}`, nodeId: "tn_1" },
          }),
        ),
      );
      const settled: string[] = [];
      // Same node, so the same home: the loop keeps the home busy for two time limits (it runs
      // once more before failing); the quick call must not wait for it.
      const loop = call("if (payload.n === 1) for (;;) {}\nreturn payload.n", 1).then((result) => {
        settled.push("loop");
        return result;
      });
      const quick = call("if (payload.n === 1) for (;;) {}\nreturn payload.n", 2).then((result) => {
        settled.push("quick");
        return result;
      });
      expect(await quick).toMatchObject({ ok: true, output: 2 });
      expect(await loop).toMatchObject({ ok: false, error: expect.stringMatching(/time limit/) });
      expect(settled).toEqual(["quick", "loop"]);
    } finally {
      await twoProcesses.close();
    }
  });
});
