/**
 * Group commit: callers submit items one at a time and await their own result, while the items
 * are written in batches. A batch is flushed when it holds `maxItems` items (or `maxWeight`, when
 * items are weighed), or `maxWaitMs` after its first item arrived, whichever comes first. Each
 * batch is flushed exactly once; several batches may be in flight at the same time.
 *
 * `flush` returns one result per item, in order. If it throws, every item of that batch gets the
 * error (error fan-out): no caller is ever told its item was written when the batch failed.
 */
export interface GroupCommitOptions<I, R> {
  flush: (items: I[]) => Promise<R[]>;
  maxItems: number;
  maxWaitMs: number;
  /** Optional size of an item (bytes, say); a batch is flushed once the sum reaches `maxWeight`. */
  weigh?: (item: I) => number;
  maxWeight?: number;
  /** Called after every flush, successful or not, with the batch size. */
  onFlush?: (info: { size: number; ok: boolean }) => void;
}

export interface GroupCommitStats {
  batches: number;
  items: number;
  failedBatches: number;
}

export interface GroupCommit<I, R> {
  submit: (item: I) => Promise<R>;
  stats: () => GroupCommitStats;
  /** Flushes the open batch at once and waits for every flush in flight. */
  drain: () => Promise<void>;
}

interface Pending<I, R> {
  item: I;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

interface OpenBatch<I, R> {
  entries: Pending<I, R>[];
  weight: number;
  timer: NodeJS.Timeout | null;
}

export function createGroupCommit<I, R>(options: GroupCommitOptions<I, R>): GroupCommit<I, R> {
  const { flush, maxItems, maxWaitMs, weigh, onFlush } = options;
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  const inFlight = new Set<Promise<void>>();
  const stats: GroupCommitStats = { batches: 0, items: 0, failedBatches: 0 };
  let open: OpenBatch<I, R> | null = null;

  async function run(entries: Pending<I, R>[]): Promise<void> {
    stats.batches += 1;
    stats.items += entries.length;
    let results: R[];
    try {
      results = await flush(entries.map((entry) => entry.item));
      if (results.length !== entries.length) {
        throw new Error(`flush returned ${results.length} results for ${entries.length} items`);
      }
    } catch (error) {
      stats.failedBatches += 1;
      for (const entry of entries) entry.reject(error);
      onFlush?.({ size: entries.length, ok: false });
      return;
    }
    entries.forEach((entry, index) => {
      entry.resolve(results[index] as R);
    });
    onFlush?.({ size: entries.length, ok: true });
  }

  function close(batch: OpenBatch<I, R>): void {
    if (open === batch) open = null;
    if (batch.timer) clearTimeout(batch.timer);
    batch.timer = null;
    const flushing = run(batch.entries);
    inFlight.add(flushing);
    void flushing.finally(() => inFlight.delete(flushing));
  }

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        let batch = open;
        if (!batch) {
          const created: OpenBatch<I, R> = { entries: [], weight: 0, timer: null };
          created.timer = setTimeout(() => close(created), maxWaitMs);
          open = created;
          batch = created;
        }
        batch.entries.push({ item, resolve, reject });
        batch.weight += weigh ? weigh(item) : 0;
        if (batch.entries.length >= maxItems || batch.weight >= maxWeight) close(batch);
      }),
    stats: () => ({ ...stats }),
    drain: async () => {
      if (open) close(open);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
