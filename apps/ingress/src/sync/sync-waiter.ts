import type { Logger } from "@hookflow/observability";
import {
  createStepHub,
  type PipelineDone,
  type PipelineParked,
  type PipelineStep,
  type RedisKeys,
  type StepHub,
} from "@hookflow/queue";
import { Redis } from "ioredis";

/** Spec: a sync-mode request waits for the pipeline at most 120 s. */
const SYNC_WAIT_MS = 120_000;
/** Without sync requests for this long, the ingress stops receiving every event's steps. */
const SYNC_IDLE_UNSUBSCRIBE_MS = 30_000;

/** What a sync-mode request learned about its event's pipeline. */
export type SyncOutcome =
  | { kind: "done"; done: PipelineDone; steps: PipelineStep[] }
  | { kind: "parked"; parked: PipelineParked; steps: PipelineStep[] }
  | { kind: "timeout"; steps: PipelineStep[] }
  /** The caller went away; nobody reads the answer. */
  | { kind: "aborted"; steps: PipelineStep[] };

export interface SyncWaiter {
  /** Waits for `done` or `parked` of the event, at most the configured time. */
  wait: (eventId: string, signal?: AbortSignal) => Promise<SyncOutcome>;
  /** Requests waiting now. */
  waiting: () => number;
  /**
   * Answers every waiting request now as if its wait ran out (408; the pipeline goes on): a
   * shutting-down ingress does not hold its callers for up to 120 s.
   */
  releaseAll: () => void;
  /** Releases the waits and drops the subscription. */
  close: () => Promise<void>;
}

export interface CreateSyncWaiterOptions {
  redisUrl: string;
  /** The ingress's command connection (reads replay buffers). */
  commandRedis: Redis;
  keys: RedisKeys;
  logger: Logger;
  waitMs?: number;
}

/**
 * Sync response mode's wait. The steps arrive over the same pub/sub channel and replay buffer as
 * the stream app's, through one subscription per ingress process, opened on the first sync
 * request (and dropped after a quiet spell): any ingress replica sees the pipeline of any worker,
 * and nothing published between the insert and the wait is missed.
 */
export function createSyncWaiter(options: CreateSyncWaiterOptions): SyncWaiter {
  const waitMs = options.waitMs ?? SYNC_WAIT_MS;
  let hub: StepHub | null = null;
  let subscriber: Redis | null = null;
  const waits = new Set<() => void>();

  const hubOf = (): StepHub => {
    if (hub) return hub;
    subscriber = new Redis(options.redisUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    subscriber.on("error", (error) =>
      options.logger.warn({ err: error }, "redis (steps subscriber) error"),
    );
    hub = createStepHub({
      subscriberRedis: subscriber,
      commandRedis: options.commandRedis,
      keys: options.keys,
      onError: (error, context) => options.logger.warn({ err: error }, context),
      idleUnsubscribeMs: SYNC_IDLE_UNSUBSCRIBE_MS,
    });
    return hub;
  };

  return {
    wait: (eventId, signal) =>
      new Promise<SyncOutcome>((resolve) => {
        const steps: PipelineStep[] = [];
        let settled = false;
        let stop: (() => void) | undefined;
        let timer: NodeJS.Timeout | undefined;
        const release = () => finish({ kind: "timeout", steps });
        const finish = (outcome: SyncOutcome) => {
          if (settled) return;
          settled = true;
          waits.delete(release);
          clearTimeout(timer);
          stop?.();
          signal?.removeEventListener("abort", onAbort);
          resolve(outcome);
        };
        const onAbort = () => finish({ kind: "aborted", steps });

        waits.add(release);
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        timer = setTimeout(() => finish({ kind: "timeout", steps }), waitMs);
        stop = hubOf().watch(eventId, {}, ({ message }) => {
          switch (message.kind) {
            case "step":
              steps.push(message.step);
              return;
            case "done":
              return finish({ kind: "done", done: message.done, steps });
            case "parked":
              return finish({ kind: "parked", parked: message.parked, steps });
          }
        });
        if (settled) stop();
      }),
    waiting: () => waits.size,
    releaseAll: () => {
      for (const release of [...waits]) release();
    },
    close: async () => {
      for (const release of [...waits]) release();
      await hub?.close();
      subscriber?.disconnect();
      hub = null;
      subscriber = null;
    },
  };
}
