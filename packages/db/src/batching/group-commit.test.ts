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

  it("with a zero window, batches what one event-loop turn submitted and flushes it at the turn's end", async () => {
    const batches: number[][] = [];
    const commit = createGroupCommit<number, number>({
      maxItems: 100,
      maxWaitMs: 0,
      flush: async (items) => {
        batches.push(items);
        return items;
      },
    });
    const first = [1, 2, 3].map((n) => commit.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    const second = [4, 5].map((n) => commit.submit(n));
    expect(await Promise.all([...first, ...second])).toEqual([1, 2, 3, 4, 5]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
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

  it("answers the callers when the flush says so, and keeps the slot until the flush ends", async () => {
    let finish: () => void = () => undefined;
    const tail = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const batches: number[][] = [];
    const reports: Array<{ size: number; ok: boolean }> = [];
    const commit = createGroupCommit<number, string>({
      maxItems: 2,
      maxWaitMs: 60_000,
      maxInFlight: 1,
      onFlush: (info) => reports.push(info),
      flush: async (items, answer) => {
        batches.push(items);
        answer(items.map((item) => `stored-${item}`));
        await tail;
        // What a flush returns or throws after it answered is only counted.
        throw new Error("the follow-up failed");
      },
    });
    const first = await Promise.all([commit.submit(1), commit.submit(2)]);
    expect(first).toEqual(["stored-1", "stored-2"]);
    // The answered batch still holds the only slot: the next full batch waits for it.
    const second = Promise.allSettled([commit.submit(3), commit.submit(4)]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1, 2]]);
    finish();
    expect((await second).map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
    await commit.drain();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(reports).toEqual([
      { size: 2, ok: false },
      { size: 2, ok: false },
    ]);
    expect(commit.stats().failedBatches).toBe(2);
  });

  it("rejects the batch when the flush answers the wrong number of results", async () => {
    const commit = createGroupCommit<number, number>({
      maxItems: 2,
      maxWaitMs: 60_000,
      flush: async (_items, answer) => {
        answer([1]);
        return [1, 2];
      },
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

  describe("with a bound on concurrent flushes", () => {
    /** A flush the test finishes by hand, recording each batch it was given. */
    function heldFlush() {
      const batches: number[][] = [];
      const releases: Array<() => void> = [];
      const flush = (items: number[]) => {
        batches.push(items);
        return new Promise<number[]>((resolve) => releases.push(() => resolve(items)));
      };
      const until = async (condition: () => boolean) => {
        while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
      };
      return { batches, releases, flush, until };
    }

    it("keeps filling a batch whose window passed while every slot is taken, and flushes it with everything that arrived once a slot frees", async () => {
      const held = heldFlush();
      const commit = createGroupCommit<number, number>({
        maxItems: 100,
        maxWaitMs: 1,
        maxInFlight: 1,
        flush: held.flush,
      });
      const first = commit.submit(1);
      await held.until(() => held.batches.length === 1);
      const later = [commit.submit(2)];
      // Several windows pass; the slot is still taken, so nothing else is flushed.
      await new Promise((resolve) => setTimeout(resolve, 20));
      later.push(commit.submit(3));
      expect(held.batches).toEqual([[1]]);
      held.releases[0]?.();
      await held.until(() => held.batches.length === 2);
      held.releases[1]?.();
      await expect(first).resolves.toBe(1);
      await expect(Promise.all(later)).resolves.toEqual([2, 3]);
      expect(held.batches).toEqual([[1], [2, 3]]);
    });

    it("queues full batches while every slot is taken and flushes them in arrival order", async () => {
      const held = heldFlush();
      const commit = createGroupCommit<number, number>({
        maxItems: 2,
        maxWaitMs: 60_000,
        maxInFlight: 1,
        flush: held.flush,
      });
      const all = Promise.all([1, 2, 3, 4, 5, 6].map((n) => commit.submit(n)));
      for (let released = 0; released < 3; released++) {
        await held.until(() => held.batches.length === released + 1);
        expect(held.releases).toHaveLength(released + 1);
        held.releases[released]?.();
      }
      await expect(all).resolves.toEqual([1, 2, 3, 4, 5, 6]);
      expect(held.batches).toEqual([
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
    });

    it("flushes queued and open batches on drain", async () => {
      const commit = createGroupCommit<number, number>({
        maxItems: 2,
        maxWaitMs: 60_000,
        maxInFlight: 1,
        flush: async (items) => items,
      });
      const pending = [1, 2, 3, 4, 5].map((n) => commit.submit(n));
      await commit.drain();
      await expect(Promise.all(pending)).resolves.toEqual([1, 2, 3, 4, 5]);
      expect(commit.stats()).toEqual({ batches: 3, items: 5, failedBatches: 0 });
    });
  });
});
