import type { Logger } from "@hookflow/observability";
import { type DeliveryQueues, PRIORITIES, type Priority } from "@hookflow/queue";
import { type LaneDemand, laneShares } from "./lane-shares.js";

export interface LaneScheduler {
  /** Counts a job of `lane` in (and, with the returned function, out again). */
  started: (lane: Priority) => () => void;
  /** The lane's worker found its queue empty (BullMQ's `drained`); a job's start clears it. */
  drained: (lane: Priority) => void;
  /** Runs one allocation now (tests; the timer runs it every tick). */
  tick: () => Promise<void>;
  stop: () => void;
}

/** How often the shares are recomputed: a lane that gets work gets its slots within this. */
const LANE_TICK_MS = 100;

/** What the scheduler needs of a lane's worker: the concurrency it sets (a BullMQ `Worker`). */
export interface LaneWorker {
  concurrency: number;
}

/**
 * Work-conserving lane scheduling for one worker process: every tick learns how many jobs wait in
 * each lane and sets each lane worker's concurrency to its share of the process's slots
 * (`laneShares`): priority order by weight when every lane has work, all the slots for the lanes
 * that do when the others are idle. Lowering a lane's concurrency never stops a running job; it
 * only keeps the lane from fetching more until it is under its share.
 * A tick reads a lane's count (one small Redis read per lane) unless the lane's worker found its
 * queue empty since its last job started and runs fewer jobs than its share: that lane takes what
 * reaches its queue when it next fetches, so it counts as having nothing waiting. At light load
 * every lane is in that state and a tick reads nothing (docs/decisions.md, "Lanes share the
 * worker's slots by need").
 */
export function startLaneScheduler(options: {
  workers: ReadonlyMap<Priority, LaneWorker>;
  queues: DeliveryQueues;
  total: number;
  logger: Logger;
  intervalMs?: number;
}): LaneScheduler {
  const { workers, queues, total, logger } = options;
  const running = Object.fromEntries(PRIORITIES.map((lane) => [lane, 0])) as Record<
    Priority,
    number
  >;
  const foundEmpty = Object.fromEntries(PRIORITIES.map((lane) => [lane, false])) as Record<
    Priority,
    boolean
  >;
  let ticking: Promise<void> | undefined;
  let stopped = false;

  const waitingIn = async (lane: Priority): Promise<number> => {
    const worker = workers.get(lane);
    // A lane that fetched a job since it last found its queue empty may have more queued behind
    // it, and BullMQ's worker can sit waiting for a running job before it fetches again: read.
    if (foundEmpty[lane] && worker && running[lane] < worker.concurrency) return 0;
    const queue = queues.get(lane);
    if (!queue) return 0;
    const counts = await queue.getJobCounts("waiting", "prioritized");
    return (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  };

  const allocate = async () => {
    const waiting = await Promise.all(PRIORITIES.map(waitingIn));
    const demand = Object.fromEntries(
      PRIORITIES.map((lane, index) => [
        lane,
        { waiting: waiting[index] ?? 0, running: running[lane] },
      ]),
    ) as Record<Priority, LaneDemand>;
    const shares = laneShares(total, demand);
    for (const [lane, worker] of workers) {
      const share = shares[lane];
      if (!stopped && worker.concurrency !== share) worker.concurrency = share;
    }
  };

  const tick = (): Promise<void> => {
    ticking ??= allocate()
      .catch((error: unknown) => logger.warn({ err: error }, "lane scheduling failed"))
      .finally(() => {
        ticking = undefined;
      });
    return ticking;
  };

  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, options.intervalMs ?? LANE_TICK_MS);
  timer.unref();

  return {
    started: (lane) => {
      running[lane] += 1;
      foundEmpty[lane] = false;
      return () => {
        running[lane] -= 1;
      };
    },
    drained: (lane) => {
      foundEmpty[lane] = true;
    },
    tick,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
