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

/**
 * Finds events Postgres holds as pending or retrying whose job is gone (Redis restarted empty, a
 * crash between commit and enqueue, an inactive webhook that became active) and enqueues them
 * again, oldest first; likewise parked paths whose resume job is gone (see `sweepParks`), and
 * approval parks whose request mail was never sent (see `sweepApprovalMail`). One sweeper runs at
 * a time across all workers (a Redis lease). The event and park scans resume where the previous
 * sweep stopped, so a backlog that does have jobs (deferred by a rate limit, say) never hides the
 * ones that do not. The three passes are independent: one failing does not skip the others.
 */
export function startSweeper(options: {
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
}): Sweeper {
  const { db, queues, lease, logger, settings } = options;
  let cursor: OverdueCursor | undefined;
  let parkCursor: ParkCursor | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  /** Runs one pass; a failure is logged as that pass's and counts as nothing done. */
  const pass = async (name: string, run: () => Promise<number>): Promise<number> => {
    try {
      return await run();
    } catch (error) {
      logger.warn({ err: error, pass: name }, `${name} sweep failed`);
      return 0;
    }
  };

  const sweep = async (): Promise<number> => {
    const now = options.now();
    const parks = await pass("park", () => sweepParksPage(now));
    const events = await pass("event", () => sweepEvents(now));
    const mails = await pass("approval mail", () => sweepMails(now));
    let more = 0;
    for (const extra of options.passes ?? []) more += await pass(extra.name, () => extra.run(now));
    return parks + events + mails + more;
  };

  const sweepParksPage = async (now: Date): Promise<number> => {
    const swept = await sweepParks({
      db,
      queues,
      before: new Date(now.getTime() - settings.graceMs),
      limit: settings.batchSize,
      ...(parkCursor ? { after: parkCursor } : {}),
    });
    parkCursor = swept.next;
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
  };

  const sweepMails = async (now: Date): Promise<number> => {
    const swept = await sweepApprovalMail({
      db,
      graphs: options.approvals.graphs,
      approvals: options.approvals.notifier,
      createdBefore: new Date(now.getTime() - settings.graceMs),
      now,
      limit: Math.min(settings.batchSize, APPROVAL_MAILS_PER_SWEEP),
    });
    if (swept.mailed > 0 || swept.retrying > 0) {
      logger.info(swept, "sweeper handled approval mails their worker had not sent");
    }
    return swept.mailed;
  };

  const sweepEvents = async (now: Date): Promise<number> => {
    const overdue = await findOverdueEvents(db, {
      dueBefore: new Date(now.getTime() - settings.graceMs),
      limit: settings.batchSize,
      ...(cursor ? { after: cursor } : {}),
    });
    const last = overdue.at(-1);
    cursor =
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
    logger.info(
      {
        requeued: lost.length,
        lanes: [...new Set(lost.map((e) => deliveryQueueName(e.priority)))],
      },
      "sweeper re-enqueued events without a job",
    );
    return lost.length;
  };

  const sweepOnce = async (): Promise<number> => {
    if (running) return running;
    running = (async () => {
      if (!(await lease.tryAcquire(Math.max(settings.intervalMs * 4, 30_000)))) return 0;
      try {
        return await sweep();
      } finally {
        // Nobody sweeps again before the interval has passed.
        await lease.holdFor(settings.intervalMs * 0.9);
      }
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => {
    if (stopped) return;
    sweepOnce().catch((error: unknown) => logger.warn({ err: error }, "sweep failed"));
  }, settings.intervalMs);
  timer.unref();

  return {
    sweepOnce,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
