import {
  type CircuitConfig,
  type CircuitDecision,
  type CircuitState,
  CLOSED_CIRCUIT,
  canAttempt,
  recordResult,
  startProbe,
} from "@hookflow/domain";
import type { Redis } from "ioredis";

/** Breaker state outlives idle periods but not forever (a disabled breaker leaves no trace). */
const STATE_TTL_MS = 7 * 24 * 3600 * 1000;
const MAX_TRANSACTION_TRIES = 50;

interface CircuitTransition {
  from: CircuitState["state"];
  to: CircuitState["state"];
}

export interface CircuitBreakerStore {
  /** May an attempt go to the primary now? Claims the single half-open probe when it allows one. */
  acquire: (
    webhookId: string,
    config: CircuitConfig,
    nowMs: number,
    delayScale: number,
  ) => Promise<{ decision: CircuitDecision; transition?: CircuitTransition }>;
  /** Applies an attempt's outcome. */
  record: (
    webhookId: string,
    config: CircuitConfig,
    success: boolean,
    nowMs: number,
  ) => Promise<{ state: CircuitState; transition?: CircuitTransition }>;
  /** Current state (closed when none is stored). */
  read: (webhookId: string) => Promise<CircuitState>;
  close: () => Promise<void>;
}

function parse(raw: string | null): CircuitState {
  if (!raw) return { ...CLOSED_CIRCUIT };
  try {
    return JSON.parse(raw) as CircuitState;
  } catch {
    return { ...CLOSED_CIRCUIT };
  }
}

function same(a: CircuitState, b: CircuitState): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The breaker's state lives in Redis, shared by every worker; transitions are the domain's pure
 * functions applied under optimistic locking (WATCH/MULTI on a dedicated connection, retried on
 * conflict). Reads that change nothing (a closed breaker on the hot path) cost one GET and no
 * transaction. Two workers racing to claim the half-open probe: one EXEC wins, the other re-reads
 * a half-open state with the probe in flight and is told to wait.
 */
export function createCircuitBreakerStore(options: {
  redis: Redis;
  keyOf: (webhookId: string) => string;
}): CircuitBreakerStore {
  const { redis, keyOf } = options;
  let txConnection: Redis | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /** Serialises this process's transactions on the dedicated connection (WATCH is per connection). */
  const exclusive = <T>(fn: (conn: Redis) => Promise<T>): Promise<T> => {
    txConnection ??= redis.duplicate({ maxRetriesPerRequest: 2 });
    const conn = txConnection;
    const run = queue.then(() => fn(conn));
    queue = run.catch(() => undefined);
    return run;
  };

  /**
   * Applies `step` to the stored state atomically. `step` returns the next state and a result; when
   * the state does not change nothing is written.
   */
  const update = async <T>(
    webhookId: string,
    step: (state: CircuitState) => { next: CircuitState; result: T },
  ): Promise<{ before: CircuitState; after: CircuitState; result: T }> => {
    const key = keyOf(webhookId);
    const current = parse(await redis.get(key));
    const first = step(current);
    if (same(current, first.next)) return { before: current, after: current, result: first.result };
    return exclusive(async (conn) => {
      for (let tries = 0; tries < MAX_TRANSACTION_TRIES; tries++) {
        await conn.watch(key);
        const before = parse(await conn.get(key));
        const { next, result } = step(before);
        if (same(before, next)) {
          await conn.unwatch();
          return { before, after: before, result };
        }
        const exec = await conn.multi().set(key, JSON.stringify(next), "PX", STATE_TTL_MS).exec();
        if (exec !== null) return { before, after: next, result };
      }
      throw new Error(`circuit breaker state of ${webhookId}: too much contention`);
    });
  };

  const transitionOf = (before: CircuitState, after: CircuitState) =>
    before.state === after.state ? undefined : { from: before.state, to: after.state };

  return {
    acquire: async (webhookId, config, nowMs, delayScale) => {
      const { before, after, result } = await update(webhookId, (state) => {
        const decision = canAttempt(state, config, nowMs, delayScale);
        const next = decision.allow && decision.probe ? startProbe(state, nowMs) : state;
        return { next, result: decision };
      });
      return { decision: result, transition: transitionOf(before, after) };
    },
    record: async (webhookId, config, success, nowMs) => {
      const { before, after } = await update(webhookId, (state) => ({
        next: recordResult(state, config, success, nowMs),
        result: undefined,
      }));
      return { state: after, transition: transitionOf(before, after) };
    },
    read: async (webhookId) => parse(await redis.get(keyOf(webhookId))),
    close: async () => {
      txConnection?.disconnect();
    },
  };
}
