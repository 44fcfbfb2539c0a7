import { batchMessage, type QueuedCall, takeBatch } from "./js-batches.js";

function call(code: string, inputJson = "{}", solo = false, scope = "wh_1\u0000tn_1"): QueuedCall {
  return { scope, code, inputJson, settle: () => undefined, ...(solo ? { solo } : {}) };
}

describe("JavaScript batches", () => {
  it("shares the queue among free processes up to the batch size", () => {
    const queue = Array.from({ length: 10 }, () => call("a"));
    expect(takeBatch(queue, { free: 2, maxBatch: 32 })).toHaveLength(5);
    expect(takeBatch(queue, { free: 1, maxBatch: 3 })).toHaveLength(3);
    expect(queue).toHaveLength(2);
  });

  it("sends a call that must run alone by itself, and stops a batch before one", () => {
    const queue = [call("a", "{}", true), call("b"), call("c"), call("d", "{}", true), call("e")];
    expect(takeBatch(queue, { free: 1, maxBatch: 32 }).map((c) => c.code)).toEqual(["a"]);
    expect(takeBatch(queue, { free: 1, maxBatch: 32 }).map((c) => c.code)).toEqual(["b", "c"]);
    expect(takeBatch(queue, { free: 1, maxBatch: 32 }).map((c) => c.code)).toEqual(["d"]);
  });

  it("caps a batch by input size but always takes one call", () => {
    const big = "x".repeat(700 * 1024);
    const queue = [call("a", big), call("b", big), call("c", "{}")];
    expect(takeBatch(queue, { free: 1, maxBatch: 32 })).toHaveLength(1);
    expect(takeBatch(queue, { free: 1, maxBatch: 32 })).toHaveLength(2);
  });

  it("sends each program (scope and code) once", () => {
    const other = "wh_2\u0000tn_1";
    const message = batchMessage(7, [
      call("a", "1"),
      call("b", "2"),
      call("a", "3"),
      call("a", "4", false, other),
    ]);
    expect(message).toEqual({
      id: 7,
      programs: [
        ["wh_1\u0000tn_1", "a"],
        ["wh_1\u0000tn_1", "b"],
        [other, "a"],
      ],
      calls: [
        [0, "1"],
        [1, "2"],
        [0, "3"],
        [2, "4"],
      ],
    });
  });
});
