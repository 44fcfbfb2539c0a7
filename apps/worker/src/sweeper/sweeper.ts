import {
  type Database,
  findOverdueEvents,
  type OverdueCursor,
  type ParkCursor,
} from "@hookflow/db";
import type { Logger } from "@hookflow/observability";
import {
  type DeliveryQueues,
  deliveryJobOf,
  deliveryQueueName,
  enqueueDeliveries,
  laneOf,
} from "@hookflow/queue";
import type { ApprovalNotifier } from "../pipeline/approval-notifier.js";
import type { GraphCache } from "../pipeline/graph-cache.js";
import { sweepTargetDeliveries } from "../targets/sweep-target-deliveries.js";
import type { RedisLease } from "./redis-lease.js";
import { sweepApprovalMail } from "./sweep-approval-mail.js";
import { sweepParks } from "./sweep-parks.js";

export interface SweeperOptions {
  /** How often a sweep runs across all workers. */
  intervalMs: number;
  /**
   * An event or park must be overdue by this much before it is considered lost; an approval park
   * must be this old before the sweeper sends a mail its worker never sent.
   */
  graceMs: number;
  /** Events, parks and approval mails examined per sweep (each). */
  batchSize: number;
}

export interface Sweeper {
  /**
   * Runs one sweep now (if this process wins the lease); returns how many jobs it re-created and
   * approval mails it sent. Each pass runs whatever the others did: a failing one is logged.
   */
  sweepOnce: () => Promise<number>;
  stop: () => Promise<void>;
}

/**
 * Approval mails claimed per sweep. Every claimed mail must go out within its claim (120 s): with
 * the mailer's 5 pooled SMTP connections and its timeouts (10 s to connect, 30 s idle socket), 10
 * mails take at most two rounds (well under 120 s) even against a slow server, so a slow send is
 * not claimed again and sent twice.
 */
const APPROVAL_MAILS_PER_SWEEP = 10;

/** What `startSweeper` takes. */
interface StartSweeperOptions {
  db: Database;
  queues: DeliveryQueues;
  lease: RedisLease;
  logger: Logger;
  settings: SweeperOptions;
  now: () => Date;
  /** The graph cache and the approval notifier (for mails the worker never sent). */
  approvals: { graphs: GraphCache; notifier: ApprovalNotifier };
  /**
   * Further passes (scheduled workflows' schedulers, ...), run after the built-in ones under the
   * same lease; each returns how much it repaired.
   */
  passes?: ReadonlyArray<{ name: string; run: (now: Date) => Promise<number> }>;
}

/** What one sweeper keeps between sweeps. */
interface SweeperState {
  /** Where the next event scan goes on; undefined to start again from the oldest. */
  eventCursor: OverdueCursor | undefined;
  /** Where the next park scan goes on; undefined to start again from the oldest. */
  parkCursor: ParkCursor | undefined;
  /** The sweep under way: a caller asking meanwhile shares it instead of starting another. */
  running: Promise<number> | undefined;
  stopped: boolean;
}

/**
 * Finds events Postgres holds as pending or retrying whose job is gone (Redis restarted empty, a
 * crash between commit and enqueue, an inactive webhook that became active) and enqueues them
 * again, oldest first; likewise parked paths whose resume job is gone (see `sweepParks`), and
 * approval parks whose request mail was never sent (see `sweepApprovalMail`). One sweeper runs at
 * a time across all workers (a Redis lease). The event and park scans resume where the previous
 * sweep stopped, so a backlog that does have jobs (deferred by a rate limit, say) never hides the
 * ones that do not. The three passes are independent: one failing does not skip the others.
 */
export function startSweeper(options: StartSweeperOptions): Sweeper {
  const state: SweeperState = {
    eventCursor: undefined,
    parkCursor: undefined,
    running: undefined,
    stopped: false,
  };
  const timer = setInterval(() => sweepOnTimer(options, state), options.settings.intervalMs);
  timer.unref();
  return {
    sweepOnce: () => sweepOnce(options, state),
    stop: () => stopSweeper(state, timer),
  };
}

function sweepOnTimer(options: StartSweeperOptions, state: SweeperState): void {
  if (state.stopped) return;
  sweepOnce(options, state).catch((error: unknown) =>
    options.logger.warn({ err: error }, "sweep failed"),
  );
}

async function stopSweeper(
  state: SweeperState,
  timer: ReturnType<typeof setInterval>,
): Promise<void> {
  state.stopped = true;
  clearInterval(timer);
  await state.running?.catch(() => 0);
}

/** Runs one sweep, or joins the one under way. */
async function sweepOnce(options: StartSweeperOptions, state: SweeperState): Promise<number> {
  if (state.running) return state.running;
  state.running = sweepUnderLease(options, state).finally(() => {
    state.running = undefined;
  });
  return state.running;
}

/** One sweep if this process wins the lease (0 if not). */
async function sweepUnderLease(options: StartSweeperOptions, state: SweeperState): Promise<number> {
  const { lease, settings } = options;
  if (!(await lease.tryAcquire(Math.max(settings.intervalMs * 4, 30_000)))) return 0;
  try {
    return await sweep(options, state);
  } finally {
    // Nobody sweeps again before the interval has passed.
    await lease.holdFor(settings.intervalMs * 0.9);
  }
}

/** Runs one pass; a failure is logged as that pass's and counts as nothing done. */
async function pass(logger: Logger, name: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    logger.warn({ err: error, pass: name }, `${name} sweep failed`);
    return 0;
  }
}

/** Every pass in turn, the extra ones last; how much they repaired together. */
async function sweep(options: StartSweeperOptions, state: SweeperState): Promise<number> {
  const { db, queues, logger, settings } = options;
  const now = options.now();
  const parks = await pass(logger, "park", () => sweepParksPage(options, state, now));
  const events = await pass(logger, "event", () => sweepEvents(options, state, now));
  const mails = await pass(logger, "approval mail", () => sweepMails(options, now));
  const targets = await pass(logger, "target delivery", () =>
    sweepTargetDeliveries({
      db,
      queues,
      before: new Date(now.getTime() - settings.graceMs),
      limit: settings.batchSize,
    }),
  );
  let more = 0;
  for (const extra of options.passes ?? []) {
    more += await pass(logger, extra.name, () => extra.run(now));
  }
  return parks + events + mails + targets + more;
}

async function sweepParksPage(
  options: StartSweeperOptions,
  state: SweeperState,
  now: Date,
): Promise<number> {
  const { logger, settings } = options;
  const swept = await sweepParks({
    db: options.db,
    queues: options.queues,
    before: new Date(now.getTime() - settings.graceMs),
    limit: settings.batchSize,
    ...(state.parkCursor ? { after: state.parkCursor } : {}),
  });
  state.parkCursor = swept.next;
  if (swept.failed.length > 0) {
    logger.warn(
      { err: swept.failed[0], failed: swept.failed.length },
      "sweeper could not check the jobs of some parked paths",
    );
  }
  if (swept.resumed > 0) {
    logger.info({ requeued: swept.resumed }, "sweeper re-enqueued parked paths without a job");
  }
  return swept.resumed;
}

async function sweepMails(options: StartSweeperOptions, now: Date): Promise<number> {
  const { settings } = options;
  const swept = await sweepApprovalMail({
    db: options.db,
    graphs: options.approvals.graphs,
    approvals: options.approvals.notifier,
    createdBefore: new Date(now.getTime() - settings.graceMs),
    now,
    limit: Math.min(settings.batchSize, APPROVAL_MAILS_PER_SWEEP),
  });
  if (swept.mailed > 0 || swept.retrying > 0) {
    options.logger.info(swept, "sweeper handled approval mails their worker had not sent");
  }
  return swept.mailed;
}

async function sweepEvents(
  options: StartSweeperOptions,
  state: SweeperState,
  now: Date,
): Promise<number> {
  const { queues, settings } = options;
  const overdue = await findOverdueEvents(options.db, {
    dueBefore: new Date(now.getTime() - settings.graceMs),
    limit: settings.batchSize,
    ...(state.eventCursor ? { after: state.eventCursor } : {}),
  });
  const last = overdue.at(-1);
  state.eventCursor =
    overdue.length < settings.batchSize || !last
      ? undefined
      : { nextAttemptAt: last.nextAttemptAt, id: last.id };
  if (overdue.length === 0) return 0;
  const jobs = await Promise.all(
    overdue.map((event) => queues.get(laneOf(event.priority))?.getJob(event.id)),
  );
  const lost = overdue.filter((_, index) => jobs[index] === undefined);
  if (lost.length === 0) return 0;
  await enqueueDeliveries(queues, lost.map(deliveryJobOf));
  options.logger.info(
    {
      requeued: lost.length,
      lanes: [...new Set(lost.map((e) => deliveryQueueName(e.priority)))],
    },
    "sweeper re-enqueued events without a job",
  );
  return lost.length;
}
