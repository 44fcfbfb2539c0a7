import { receiveMessageOnPort } from "node:worker_threads";
import { createTransformRunner } from "../src/index.js";
import { type JqJob, JqWorkerMessage } from "../src/jq/jq-messages.js";
import { buildBatchInput, parseBatchOutput, wrapJqProgram } from "../src/jq/jq-program.js";
import {
  compileJqModule,
  type JqWorkerThread,
  startJqWorker,
  type WasmModule,
} from "../src/jq/jq-worker-thread.js";

// A jq worker thread keeps jq's `main` running between batches of one key (webhook and program)
// and serves its input reads itself; these tests drive one thread directly, then the pool.

let wasmModule: WasmModule;
beforeAll(async () => {
  wasmModule = await compileJqModule();
});

interface Thread {
  thread: JqWorkerThread;
  next(): Promise<JqWorkerMessage>;
  stop(): Promise<void>;
}

function startThread(): Thread {
  const waiting: ((message: JqWorkerMessage) => void)[] = [];
  const arrived: JqWorkerMessage[] = [];
  let crashed = "";
  const thread = startJqWorker(wasmModule, 128 * 1024 * 1024, {
    onMessage(raw) {
      const message = JqWorkerMessage.parse(raw);
      const waiter = waiting.shift();
      if (waiter) waiter(message);
      else arrived.push(message);
    },
    onCrash(reason) {
      crashed = reason;
    },
  });
  return {
    thread,
    next: () => {
      const message = arrived.shift();
      if (message) return Promise.resolve(message);
      if (crashed) return Promise.reject(new Error(crashed));
      return new Promise((resolve) => waiting.push(resolve));
    },
    stop: async () => {
      await thread.worker.terminate();
    },
  };
}

let nextId = 1;
function job(key: string, program: string, payloads: unknown[]): JqJob {
  return {
    type: "job",
    id: nextId++,
    key,
    program: wrapJqProgram(program),
    stdin: buildBatchInput(payloads.map((payload) => JSON.stringify(payload))),
    maxStdoutChars: 1024 * 1024,
  };
}

async function answer(thread: Thread, sent: JqJob, count: number) {
  thread.thread.send(sent);
  const message = await thread.next();
  if (message.type !== "done") throw new Error(`expected done, got ${message.type}`);
  expect(message.id).toBe(sent.id);
  return {
    outcomes: parseBatchOutput(message.stdout, count, 1024 * 1024),
    mainStarts: message.mainStarts,
    exitCode: message.exitCode,
  };
}

describe("a jq worker thread", () => {
  it("continues one jq main across batches of a key and starts another for a new key", async () => {
    const thread = startThread();
    try {
      expect((await thread.next()).type).toBe("ready");
      const first = await answer(thread, job("a", ".n * 2", [{ n: 1 }, { n: 2 }]), 2);
      expect(first.outcomes).toEqual([
        { ok: true, output: 2 },
        { ok: true, output: 4 },
      ]);
      expect(first.mainStarts).toBe(1);
      // Same key: the same main reads the next batch; each batch gets only its own outputs.
      const second = await answer(thread, job("a", ".n * 2", [{ n: 5 }]), 1);
      expect(second).toMatchObject({ outcomes: [{ ok: true, output: 10 }], mainStarts: 1 });
      // Another key ends that main (end of input) and starts its own.
      const other = await answer(thread, job("b", ".n + 1", [{ n: 5 }, { n: 6 }, { n: 7 }]), 3);
      expect(other).toMatchObject({
        outcomes: [
          { ok: true, output: 6 },
          { ok: true, output: 7 },
          { ok: true, output: 8 },
        ],
        mainStarts: 2,
      });
      const back = await answer(thread, job("a", ".n * 2", [{ n: 3 }]), 1);
      expect(back).toMatchObject({ outcomes: [{ ok: true, output: 6 }], mainStarts: 3 });
    } finally {
      await thread.stop();
    }
  });

  it("answers a program that does not compile with jq's exit code, then serves the next batch", async () => {
    const thread = startThread();
    try {
      await thread.next();
      thread.thread.send(job("bad", ".[", [{}]));
      const failed = await thread.next();
      expect(failed).toMatchObject({ type: "done", exitCode: 3 });
      expect(failed.type === "done" ? failed.stderr : "").toMatch(/compile error/);
      const good = await answer(thread, job("bad", ".n", [{ n: 4 }]), 1);
      expect(good.outcomes).toEqual([{ ok: true, output: 4 }]);
    } finally {
      await thread.stop();
    }
  });

  it("stops when terminated while it waits inside jq for the next batch", async () => {
    const thread = startThread();
    await thread.next();
    await answer(thread, job("a", ".", [1]), 1);
    // The thread now sleeps in Atomics.wait inside jq's read: terminating must still end it.
    const exit = await thread.thread.worker.terminate();
    expect(typeof exit).toBe("number");
    expect(receiveMessageOnPort(thread.thread.replies)).toBeUndefined();
  });
});

describe("the jq pool with long-running mains", () => {
  it("keeps every webhook's outputs with its own calls when keys interleave", async () => {
    const runner = createTransformRunner({ jqWorkers: 2, jqGatherMs: 2 });
    try {
      const calls = Array.from({ length: 300 }, (_, i) => {
        const webhookId = `wh_${i % 3}`;
        const template = i % 2 === 0 ? "{n: .n}" : ".n as $x | {n: $x}";
        return runner
          .run({
            mode: "jq",
            template,
            payload: { n: i },
            context: { eventId: `evt_${i}`, webhookId, nodeId: "tn_1" },
          })
          .then((result) => ({ i, result }));
      });
      for (const { i, result } of await Promise.all(calls)) {
        expect(result).toMatchObject({ ok: true, output: { n: i } });
      }
    } finally {
      await runner.close();
    }
  });

  it("replaces a thread after every batch when its memory passes the recycle mark, and goes on serving", async () => {
    const runner = createTransformRunner({ jqWorkers: 1, jqRecycleMemoryMb: 1 });
    const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
    try {
      for (let n = 0; n < 4; n++) {
        expect(
          await runner.run({ mode: "jq", template: ".n", payload: { n }, context }),
        ).toMatchObject({
          ok: true,
          output: n,
        });
      }
    } finally {
      await runner.close();
    }
  });

  it("refuses input_line_number, which would count earlier events", async () => {
    const runner = createTransformRunner({ jqWorkers: 1 });
    const context = { eventId: "evt_1", webhookId: "wh_1", nodeId: "tn_1" };
    try {
      const result = await runner.run({
        mode: "jq",
        template: "input_line_number",
        payload: {},
        context,
      });
      expect(result).toMatchObject({
        ok: false,
        error: expect.stringMatching(/input_line_number is not available/),
      });
    } finally {
      await runner.close();
    }
  });
});
