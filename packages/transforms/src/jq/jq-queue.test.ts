import { createJqQueue, gatherWaitMs, type QueuedJqCall } from "./jq-queue.js";

function call(key: string, inputJson = "{}"): QueuedJqCall {
  return { key, program: ".", inputJson, settle: () => undefined };
}

describe("jq queue", () => {
  it("batches calls of one key and lets keys take turns", () => {
    const queue = createJqQueue({ maxBatch: 2, maxBatchBytes: 1000 });
    const calls = [call("a"), call("a"), call("b"), call("a")];
    for (const queued of calls) queue.push(queued);
    expect(queue.next()).toEqual([calls[0], calls[1]]);
    expect(queue.next()).toEqual([calls[2]]);
    expect(queue.next()).toEqual([calls[3]]);
    expect(queue.next()).toBeUndefined();
  });

  it("caps a batch by input size but always takes one call", () => {
    const queue = createJqQueue({ maxBatch: 10, maxBatchBytes: 5 });
    const calls = [call("a", "123456789"), call("a", "12"), call("a", "345")];
    for (const queued of calls) queue.push(queued);
    expect(queue.next()).toEqual([calls[0]]);
    expect(queue.next()).toEqual([calls[1], calls[2]]);
  });

  it("serves calls queued alone first, one at a time", () => {
    const queue = createJqQueue({ maxBatch: 10, maxBatchBytes: 1000 });
    const batched = call("a");
    const retries = [call("b"), call("b")];
    queue.push(batched);
    for (const retry of retries) queue.pushAlone(retry);
    expect(queue.next()).toEqual([retries[0]]);
    expect(queue.next()).toEqual([retries[1]]);
    expect(queue.next()).toEqual([batched]);
  });

  it("drains everything it holds", () => {
    const queue = createJqQueue({ maxBatch: 10, maxBatchBytes: 1000 });
    queue.push(call("a"));
    queue.pushAlone(call("b"));
    expect(queue.drain()).toHaveLength(2);
    expect(queue.next()).toBeUndefined();
  });

  it("tells whether the next batch is full and how many calls wait", () => {
    const queue = createJqQueue({ maxBatch: 2, maxBatchBytes: 1000 });
    expect(queue.nextIsFull()).toBe(false);
    queue.push(call("a"));
    expect([queue.nextIsFull(), queue.size()]).toEqual([false, 1]);
    queue.push(call("a"));
    expect([queue.nextIsFull(), queue.size()]).toEqual([true, 2]);
    queue.next();
    queue.pushAlone(call("b"));
    // A retry runs alone: it never waits for company.
    expect([queue.nextIsFull(), queue.size()]).toEqual([true, 1]);
  });

  it("counts a batch as full once its input reaches the byte cap", () => {
    const queue = createJqQueue({ maxBatch: 10, maxBatchBytes: 5 });
    queue.push(call("a", "123"));
    expect(queue.nextIsFull()).toBe(false);
    queue.push(call("a", "45"));
    expect(queue.nextIsFull()).toBe(true);
  });
});

describe("jq gathering", () => {
  const busy = {
    nowMs: 1_000,
    lastStartAtMs: 996,
    gatherMs: 10,
    otherRunBusy: true,
    nextIsFull: false,
  };

  it("waits out the gather window after the last start while another run is busy", () => {
    expect(gatherWaitMs(busy)).toBe(6);
    expect(gatherWaitMs({ ...busy, nowMs: 1_006 })).toBe(0);
  });

  it("starts at once at a quiet pool, with a full batch, or with gathering off", () => {
    expect(gatherWaitMs({ ...busy, otherRunBusy: false })).toBe(0);
    expect(gatherWaitMs({ ...busy, nextIsFull: true })).toBe(0);
    expect(gatherWaitMs({ ...busy, gatherMs: 0 })).toBe(0);
  });
});
