import { createJqQueue, createKeyRunTracker, type QueuedJqCall } from "./jq-queue.js";

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

  it("skips keys that are not ready, telling each whether its batch is full", () => {
    const queue = createJqQueue({ maxBatch: 2, maxBatchBytes: 1000 });
    const calls = [call("a"), call("b"), call("b"), call("c")];
    for (const queued of calls) queue.push(queued);
    const asked: [string, boolean][] = [];
    const batch = queue.next((key, full) => {
      asked.push([key, full]);
      return key !== "a";
    });
    expect(batch).toEqual([calls[1], calls[2]]);
    expect(asked).toEqual([
      ["a", false],
      ["b", true],
    ]);
    expect([...queue.keys()]).toEqual(["a", "c"]);
    expect(queue.next(() => false)).toBeUndefined();
    expect(queue.size()).toBe(2);
  });

  it("counts a batch as full once its input reaches the byte cap", () => {
    const queue = createJqQueue({ maxBatch: 10, maxBatchBytes: 5 });
    const fullness: boolean[] = [];
    queue.push(call("a", "123"));
    queue.next((_key, full) => fullness.push(full) < 0);
    queue.push(call("a", "45"));
    queue.next((_key, full) => fullness.push(full) < 0);
    expect(fullness).toEqual([false, true]);
  });

  it("runs a retry queued alone even when no key is ready", () => {
    const queue = createJqQueue({ maxBatch: 2, maxBatchBytes: 1000 });
    const retry = call("a");
    queue.pushAlone(retry);
    expect(queue.next(() => false)).toEqual([retry]);
  });
});

describe("jq key runs", () => {
  it("never makes sequential lone calls wait", () => {
    const runs = createKeyRunTracker(10);
    for (let at = 0; at < 50; at += 1) {
      expect(runs.waitMs("a", false, at)).toBe(0);
      runs.started("a", 1, at);
      runs.ended("a", 0);
    }
  });

  it("holds a key while its run is in flight, then gathers for the window once it is under load", () => {
    const runs = createKeyRunTracker(10);
    runs.started("a", 1, 100);
    expect(runs.waitMs("a", false, 101)).toBe(Number.POSITIVE_INFINITY);
    expect(runs.waitMs("a", true, 101)).toBe(0);
    // Two calls queued while the run was in flight: the key is under load.
    runs.ended("a", 2);
    expect(runs.waitMs("a", false, 103)).toBe(7);
    expect(runs.waitMs("a", false, 110)).toBe(0);
    // A batch with company also marks the key as under load; other keys are unaffected.
    runs.started("b", 5, 200);
    runs.ended("b", 0);
    expect(runs.waitMs("b", false, 204)).toBe(6);
    expect(runs.waitMs("c", false, 204)).toBe(0);
  });

  it("forgets keys past the window with nothing in flight", () => {
    const runs = createKeyRunTracker(10);
    for (let key = 0; key < 100; key++) {
      runs.started(`k${key}`, 1, key * 20);
      runs.ended(`k${key}`, 0);
    }
    expect(runs.size).toBeLessThanOrEqual(2);
    runs.started("busy", 1, 5_000);
    runs.started("later", 1, 6_000);
    // "busy" is still in flight: it and everything after it are kept.
    expect(runs.size).toBe(2);
  });
});
