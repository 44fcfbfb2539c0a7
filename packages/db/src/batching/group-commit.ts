/**
 * Group commit: callers submit items one at a time and await their own result, while the items
 * are written (or read) in batches: the ingress's event inserts, the worker's event reads and
 * attempt records. A batch is closed when it holds `maxItems` items (or `maxWeight`, when items
 * are weighed), or `maxWaitMs` after its first item arrived (0: at the end of the current
 * event-loop turn, so the items submitted together in one turn share a batch and nothing waits
 * on a timer), whichever comes first. Each
 * batch is flushed exactly once. At most `maxInFlight` flushes run at the same time: under load
 * a closed batch waits for a free slot, and an open batch whose window passed keeps filling
 * until a slot frees, so batches grow with load instead of multiplying (fewer, larger writes),
 * and an idle system still flushes after `maxWaitMs`.
 *
 * `flush` returns one result per item, in order. If it throws, every item of that batch gets the
 * error (error fan-out): no caller is ever told its item was written when the batch failed. A
 * flush may answer its callers before it ends by calling `answer` with their results (the
 * ingress answers once its INSERT commits and goes on to enqueue): the batch keeps its slot until
 * the flush ends, its callers have their results at once, and what the flush returns or throws
 * afterwards is only counted.
 */
export interface GroupCommitOptions<I, R> {
  flush: (items: I[], answer: (results: R[]) => void) => Promise<R[]>;
  maxItems: number;
  maxWaitMs: number;
  /** Optional size of an item (bytes, say); a batch is flushed once the sum reaches `maxWeight`. */
  weigh?: (item: I) => number;
  maxWeight?: number;
  /** Flushes allowed to run at the same time; unbounded when absent. */
  maxInFlight?: number;
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
  /** Its window: a timer, or the end of the current turn when the window is 0. */
  timer: NodeJS.Timeout | NodeJS.Immediate | null;
  /** Its window passed while every flush slot was taken: flush at the next free slot. */
  due: boolean;
}

export function createGroupCommit<I, R>(options: GroupCommitOptions<I, R>): GroupCommit<I, R> {
  const { flush, maxItems, maxWaitMs, weigh, onFlush } = options;
  const maxWeight = options.maxWeight ?? Number.POSITIVE_INFINITY;
  const maxInFlight = Math.max(1, options.maxInFlight ?? Number.POSITIVE_INFINITY);
  const inFlight = new Set<Promise<void>>();
  /** Closed batches waiting for a flush slot, oldest first. */
  const ready: Pending<I, R>[][] = [];
  const stats: GroupCommitStats = { batches: 0, items: 0, failedBatches: 0 };
  let open: OpenBatch<I, R> | null = null;

  async function run(entries: Pending<I, R>[]): Promise<void> {
    stats.batches += 1;
    stats.items += entries.length;
    let answered = false;
    const answer = (results: R[]) => {
      if (answered) return;
      if (results.length !== entries.length) {
        throw new Error(`flush answered ${results.length} results for ${entries.length} items`);
      }
      answered = true;
      entries.forEach((entry, index) => {
        entry.resolve(results[index] as R);
      });
    };
    try {
      answer(
        await flush(
          entries.map((entry) => entry.item),
          answer,
        ),
      );
    } catch (error) {
      stats.failedBatches += 1;
      if (!answered) for (const entry of entries) entry.reject(error);
      onFlush?.({ size: entries.length, ok: false });
      return;
    }
    onFlush?.({ size: entries.length, ok: true });
  }

  function start(entries: Pending<I, R>[]): void {
    const flushing = run(entries);
    inFlight.add(flushing);
    void flushing.finally(() => {
      inFlight.delete(flushing);
      pump();
    });
  }

  /** Starts waiting work while slots are free: closed batches first, then a due open batch. */
  function pump(): void {
    while (inFlight.size < maxInFlight) {
      const next = ready.shift();
      if (next) {
        start(next);
      } else if (open?.due) {
        close(open);
      } else {
        return;
      }
    }
  }

  function clearWindow(batch: OpenBatch<I, R>): void {
    if (batch.timer === null) return;
    if (maxWaitMs > 0) clearTimeout(batch.timer as NodeJS.Timeout);
    else clearImmediate(batch.timer as NodeJS.Immediate);
    batch.timer = null;
  }

  function close(batch: OpenBatch<I, R>): void {
    if (open === batch) open = null;
    clearWindow(batch);
    ready.push(batch.entries);
    pump();
  }

  function windowPassed(batch: OpenBatch<I, R>): void {
    batch.timer = null;
    if (inFlight.size < maxInFlight) close(batch);
    else batch.due = true;
  }

  return {
    submit: (item) =>
      new Promise<R>((resolve, reject) => {
        let batch = open;
        if (!batch) {
          const created: OpenBatch<I, R> = { entries: [], weight: 0, timer: null, due: false };
          created.timer =
            maxWaitMs > 0
              ? setTimeout(() => windowPassed(created), maxWaitMs)
              : setImmediate(() => windowPassed(created));
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
      while (inFlight.size > 0 || ready.length > 0) {
        pump();
        await Promise.allSettled([...inFlight]);
      }
    },
  };
}
