import type { Logger } from "@hookflow/observability";
import { type DeliveryQueues, PRIORITIES, type Priority } from "@hookflow/queue";
import type { Worker } from "bullmq";
import { type LaneDemand, laneShares } from "./lane-shares.js";

export interface LaneScheduler {
  /** Counts a job of `lane` in (and, with the returned function, out again). */
  started: (lane: Priority) => () => void;
  /** Runs one allocation now (tests; the timer runs it every tick). */
  tick: () => Promise<void>;
  stop: () => void;
}

/** How often the shares are recomputed: a lane that gets work gets its slots within this. */
const LANE_TICK_MS = 100;

/**
 * Work-conserving lane scheduling for one worker process: every tick reads how many jobs wait in
 * each lane (one small Redis read per lane) and sets each lane worker's concurrency to its share
 * of the process's slots (`laneShares`): priority order by weight when every lane has work, all
 * the slots for the lanes that do when the others are idle. Lowering a lane's concurrency never
 * stops a running job; it only keeps the lane from fetching more until it is under its share.
 */
export function startLaneScheduler(options: {
  workers: ReadonlyMap<Priority, Worker>;
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
  let ticking: Promise<void> | undefined;
  let stopped = false;

  const waitingIn = async (lane: Priority): Promise<number> => {
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
      return () => {
        running[lane] -= 1;
      };
    },
    tick,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}
