import { batchMessage, homeProcess, type QueuedCall, takeBatch } from "./js-batches.js";

function call(
  code: string,
  inputJson = "{}",
  solo = false,
  scope = "wh_1\u0000tn_1",
  home = 0,
): QueuedCall {
  return { scope, code, inputJson, settle: () => undefined, home, ...(solo ? { solo } : {}) };
}

describe("JavaScript batches", () => {
  it("shares the queue among free processes up to the batch size", () => {
    const queue = Array.from({ length: 10 }, () => call("a"));
    expect(takeBatch(queue, { free: 2, maxBatch: 32, process: 0 })).toHaveLength(5);
    expect(takeBatch(queue, { free: 1, maxBatch: 3, process: 0 })).toHaveLength(3);
    expect(queue).toHaveLength(2);
  });

  it("sends a call that must run alone by itself, and stops a batch before one", () => {
    const queue = [call("a", "{}", true), call("b"), call("c"), call("d", "{}", true), call("e")];
    expect(takeBatch(queue, { free: 1, maxBatch: 32, process: 0 }).map((c) => c.code)).toEqual([
      "a",
    ]);
    expect(takeBatch(queue, { free: 1, maxBatch: 32, process: 0 }).map((c) => c.code)).toEqual([
      "b",
      "c",
    ]);
    expect(takeBatch(queue, { free: 1, maxBatch: 32, process: 0 }).map((c) => c.code)).toEqual([
      "d",
    ]);
  });

  it("caps a batch by input size but always takes one call", () => {
    const big = "x".repeat(700 * 1024);
    const queue = [call("a", big), call("b", big), call("c", "{}")];
    expect(takeBatch(queue, { free: 1, maxBatch: 32, process: 0 })).toHaveLength(1);
    expect(takeBatch(queue, { free: 1, maxBatch: 32, process: 0 })).toHaveLength(2);
  });

  it("takes the calls whose home is the process first, and the oldest others when none is", () => {
    const queue = [
      call("a", "{}", false, "s", 1),
      call("b", "{}", false, "s", 0),
      call("c", "{}", false, "s", 1),
      call("d", "{}", false, "s", 0),
    ];
    const codes = (calls: QueuedCall[]) => calls.map((taken) => taken.code);
    expect(codes(takeBatch(queue, { free: 2, maxBatch: 32, process: 0 }))).toEqual(["b", "d"]);
    // Nothing left whose home is process 0: it takes the oldest rather than idle.
    expect(codes(takeBatch(queue, { free: 1, maxBatch: 1, process: 0 }))).toEqual(["a"]);
    expect(codes(takeBatch(queue, { free: 1, maxBatch: 32, process: 1 }))).toEqual(["c"]);
  });

  it("gives every node a stable home process", () => {
    expect(homeProcess("wh_1\u0000tn_1", 2)).toBe(homeProcess("wh_1\u0000tn_1", 2));
    expect(homeProcess("anything", 1)).toBe(0);
    const homes = new Set(
      Array.from({ length: 50 }, (_, i) => homeProcess(`wh_${i}\u0000tn_1`, 4)),
    );
    expect([...homes].sort()).toEqual([0, 1, 2, 3]);
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
