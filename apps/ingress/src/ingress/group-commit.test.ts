import { createGroupCommit } from "./group-commit.js";

describe("createGroupCommit", () => {
  it("writes concurrent submissions in one batch and answers each caller with its own result", async () => {
    const batches: number[][] = [];
    const commit = createGroupCommit<number, string>({
      maxItems: 100,
      maxWaitMs: 5,
      flush: async (items) => {
        batches.push(items);
        return items.map((item) => `done-${item}`);
      },
    });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => commit.submit(n)));
    expect(results).toEqual(["done-1", "done-2", "done-3", "done-4", "done-5"]);
    expect(batches).toEqual([[1, 2, 3, 4, 5]]);
    expect(commit.stats()).toEqual({ batches: 1, items: 5, failedBatches: 0 });
  });

  it("flushes as soon as a batch reaches its size limit without waiting for the window", async () => {
    const batches: number[][] = [];
    const commit = createGroupCommit<number, number>({
      maxItems: 3,
      // A window no test would wait for: only the size limit can flush these batches in time.
      maxWaitMs: 60_000,
      flush: async (items) => {
        batches.push(items);
        return items;
      },
    });
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => commit.submit(n)));
    expect(results).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it("flushes once the summed weight reaches the weight limit", async () => {
    const batches: string[][] = [];
    const commit = createGroupCommit<string, number>({
      maxItems: 100,
      maxWaitMs: 60_000,
      weigh: (item) => item.length,
      maxWeight: 10,
      flush: async (items) => {
        batches.push(items);
        return items.map((item) => item.length);
      },
    });
    const results = await Promise.all(["aaaaa", "bbbbbb"].map((s) => commit.submit(s)));
    expect(results).toEqual([5, 6]);
    expect(batches).toEqual([["aaaaa", "bbbbbb"]]);
  });

  it("rejects every item of a failed batch and leaves other batches untouched", async () => {
    const commit = createGroupCommit<number, number>({
      maxItems: 2,
      maxWaitMs: 60_000,
      flush: async (items) => {
        if (items.includes(3)) throw new Error("database down");
        return items;
      },
    });
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => commit.submit(n)));
    expect(outcomes.map((o) => o.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "rejected",
    ]);
    for (const outcome of outcomes.slice(2)) {
      expect((outcome as PromiseRejectedResult).reason).toEqual(new Error("database down"));
    }
    expect(commit.stats()).toEqual({ batches: 2, items: 4, failedBatches: 1 });
  });

  it("rejects the batch when flush returns the wrong number of results", async () => {
    const commit = createGroupCommit<number, number>({
      maxItems: 2,
      maxWaitMs: 60_000,
      flush: async () => [1],
    });
    const outcomes = await Promise.allSettled([1, 2].map((n) => commit.submit(n)));
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
  });

  it("flushes the open batch on drain and waits for it", async () => {
    const flushed: number[] = [];
    const commit = createGroupCommit<number, number>({
      maxItems: 100,
      maxWaitMs: 60_000,
      flush: async (items) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        flushed.push(...items);
        return items;
      },
    });
    const pending = [commit.submit(7), commit.submit(8)];
    await commit.drain();
    expect(flushed).toEqual([7, 8]);
    await expect(Promise.all(pending)).resolves.toEqual([7, 8]);
  });

  it("reports every flush with its size and outcome", async () => {
    const reports: Array<{ size: number; ok: boolean }> = [];
    let fail = false;
    const commit = createGroupCommit<number, number>({
      maxItems: 2,
      maxWaitMs: 60_000,
      onFlush: (info) => reports.push(info),
      flush: async (items) => {
        if (fail) throw new Error("no");
        return items;
      },
    });
    await Promise.all([commit.submit(1), commit.submit(2)]);
    fail = true;
    await Promise.allSettled([commit.submit(3), commit.submit(4)]);
    expect(reports).toEqual([
      { size: 2, ok: true },
      { size: 2, ok: false },
    ]);
  });
});
