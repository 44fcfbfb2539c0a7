import {
  batchMessage,
  homeProcess,
  type ProcessState,
  type QueuedCall,
  STEAL_AFTER_MS,
  takeBatch,
  waitingFor,
} from "./js-batches.js";

function call(
  code: string,
  inputJson = "{}",
  solo = false,
  scope = "wh_1\u0000tn_1",
  home = 0,
  queuedAtMs = 0,
): QueuedCall {
  const fields = { scope, code, inputJson, settle: () => undefined, home, queuedAtMs };
  return { ...fields, ...(solo ? { solo } : {}) };
}

/** A free process at time `nowMs` (every other home busy since 10 unless told otherwise). */
function limits(
  free: number,
  maxBatch: number,
  process = 0,
  nowMs = 0,
  home: ProcessState = { state: "busy", sinceMs: 10 },
) {
  return { free, maxBatch, process, nowMs, homeState: () => home };
}

describe("JavaScript batches", () => {
  it("takes its own calls up to the batch size, and shares a backlog it steals", () => {
    const queue = Array.from({ length: 10 }, () => call("a"));
    expect(takeBatch(queue, limits(2, 3))).toHaveLength(3);
    expect(takeBatch(queue, limits(2, 32))).toHaveLength(7);
    const backlog = Array.from({ length: 10 }, () => call("a", "{}", false, "s", 1));
    // Process 0 steals (the calls waited long enough) at most its share among two free ones.
    expect(takeBatch(backlog, limits(2, 32, 0, 100))).toHaveLength(5);
  });

  it("sends a call that must run alone by itself, and stops a batch before one", () => {
    const queue = [call("a", "{}", true), call("b"), call("c"), call("d", "{}", true), call("e")];
    expect(takeBatch(queue, limits(1, 32)).map((c) => c.code)).toEqual(["a"]);
    expect(takeBatch(queue, limits(1, 32)).map((c) => c.code)).toEqual(["b", "c"]);
    expect(takeBatch(queue, limits(1, 32)).map((c) => c.code)).toEqual(["d"]);
  });

  it("caps a batch by input size but always takes one call", () => {
    const big = "x".repeat(700 * 1024);
    const queue = [call("a", big), call("b", big), call("c", "{}")];
    expect(takeBatch(queue, limits(1, 32))).toHaveLength(1);
    expect(takeBatch(queue, limits(1, 32))).toHaveLength(2);
  });

  it("takes the calls whose home is the process first", () => {
    const queue = [
      call("a", "{}", false, "s", 1),
      call("b", "{}", false, "s", 0),
      call("c", "{}", false, "s", 1),
      call("d", "{}", false, "s", 0),
    ];
    const codes = (calls: QueuedCall[]) => calls.map((taken) => taken.code);
    expect(codes(takeBatch(queue, limits(2, 32)))).toEqual(["b", "d"]);
    expect(codes(takeBatch(queue, limits(1, 32, 1)))).toEqual(["a", "c"]);
  });

  it("takes another process's calls only once their home runs one batch long, they fill a batch, or their home is down", () => {
    const codes = (calls: QueuedCall[]) => calls.map((taken) => taken.code);
    const waiting = () => [call("a", "{}", false, "s", 1, 10), call("b", "{}", false, "s", 1, 11)];
    // Process 1 started its batch at 10: at 34 process 0 leaves its calls to it.
    expect(STEAL_AFTER_MS).toBe(25);
    expect(takeBatch(waiting(), limits(1, 32, 0, 34))).toEqual([]);
    // Its batch has run STEAL_AFTER_MS: process 0 takes the oldest calls.
    expect(codes(takeBatch(waiting(), limits(1, 32, 0, 35)))).toEqual(["a", "b"]);
    // A full batch waits: no need to wait for the home.
    expect(codes(takeBatch(waiting(), limits(1, 2, 0, 11)))).toEqual(["a", "b"]);
    // The home process is down or starting: nobody to wait for.
    expect(codes(takeBatch(waiting(), limits(1, 32, 0, 11, { state: "down" })))).toEqual([
      "a",
      "b",
    ]);
  });

  it("leaves the calls of a free home to it, however long they waited (it is gathering them)", () => {
    const waiting = [call("a", "{}", false, "s", 1, 10), call("b", "{}", false, "s", 1, 11)];
    expect(takeBatch(waiting, limits(1, 32, 0, 50, { state: "free" }))).toEqual([]);
    expect(waiting).toHaveLength(2);
  });

  it("counts the calls waiting for a process, not those that must run alone", () => {
    const queue = [
      call("a", "{}", false, "s", 1),
      call("b", "{}", true, "s", 1),
      call("c", "{}", false, "s", 0),
      call("d", "{}", false, "s", 1),
    ];
    expect(waitingFor(queue, 1)).toBe(2);
    expect(waitingFor(queue, 0)).toBe(1);
    expect(waitingFor(queue, 2)).toBe(0);
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
