import { compileUserPattern } from "@hookflow/domain";
import type { EnginePorts, StepDraft, TransformOutput, TransformPort } from "../engine/types.js";
import { MemoryMergeStore } from "../executors/merge.js";
import type { RateLimitAnswer } from "../executors/rate-limit.js";
import type { PatternPort } from "../executors/schema-validator.js";

/**
 * In-memory ports for engine tests (pure code: fakes of ports, no mocks of Postgres or Redis).
 * Transforms are named functions: a node's `template` picks one.
 */
type FakeTransform = (payload: unknown) => TransformOutput;

const FAKE_TRANSFORMS: Record<string, FakeTransform> = {
  identity: (payload) => ({ ok: true, payload, body: JSON.stringify(payload) }),
  "add-flag": (payload) => {
    const out = { ...(payload as Record<string, unknown>), flagged: true };
    return { ok: true, payload: out, body: JSON.stringify(out) };
  },
  "to-text": (payload) => ({
    ok: true,
    payload: `text:${JSON.stringify(payload)}`,
    body: "plain text",
  }),
  "drop-total": (payload) => {
    const { total: _total, ...rest } = payload as Record<string, unknown>;
    return { ok: true, payload: rest, body: JSON.stringify(rest) };
  },
  explode: () => ({ ok: false, error: "TypeError: boom" }),
};

function fakeTransformPort(calls: string[] = []): TransformPort {
  return {
    run: async ({ template, payload, context }) => {
      calls.push(`${context.nodeId}:${template}`);
      const transform = FAKE_TRANSFORMS[template];
      return transform ? transform(payload) : { ok: false, error: `unknown template ${template}` };
    },
  };
}

/** Pattern checks on the calling thread, without a time limit (the engine's tests). */
export function inProcessPatternPort(calls: number[] = []): PatternPort {
  return {
    match: async (checks) => {
      calls.push(checks.length);
      return {
        ok: true,
        results: checks.map(({ source, value }) => {
          const compiled = compileUserPattern(source);
          return compiled.ok ? compiled.pattern.test(value) : compiled.error;
        }),
      };
    },
  };
}

/** A sliding window per node over a fake clock; members already counted are not counted again. */
class FakeRateWindow {
  readonly hits = new Map<string, Array<{ member: string; at: number }>>();
  constructor(private readonly clock: () => number) {}

  async acquire(input: {
    nodeId: string;
    member: string;
    maxEvents: number;
    windowMs: number;
  }): Promise<RateLimitAnswer> {
    const now = this.clock();
    const live = (this.hits.get(input.nodeId) ?? []).filter((h) => h.at > now - input.windowMs);
    this.hits.set(input.nodeId, live);
    if (live.some((h) => h.member === input.member)) return { allowed: true };
    if (live.length < input.maxEvents) {
      live.push({ member: input.member, at: now });
      return { allowed: true };
    }
    const oldest = live[live.length - input.maxEvents] as { at: number };
    return { allowed: false, retryAfterMs: oldest.at + input.windowMs - now };
  }
}

export interface FakePorts extends EnginePorts {
  clock: { now: number };
  steps: StepDraft[];
  transformCalls: string[];
  window: FakeRateWindow;
  mergeStore: MemoryMergeStore;
}

export function fakePorts(options: { now?: number; delayScale?: number } = {}): FakePorts {
  const clock = { now: options.now ?? Date.UTC(2030, 0, 1) };
  const steps: StepDraft[] = [];
  const transformCalls: string[] = [];
  const window = new FakeRateWindow(() => clock.now);
  const mergeStore = new MemoryMergeStore();
  return {
    clock,
    steps,
    transformCalls,
    window,
    mergeStore,
    transform: fakeTransformPort(transformCalls),
    patterns: inProcessPatternPort(),
    rateLimit: { acquire: (input) => window.acquire(input) },
    merge: { arrive: (a) => mergeStore.arrive(a), expire: (k) => mergeStore.expire(k) },
    now: () => clock.now,
    delayScale: options.delayScale ?? 1,
    onStep: (step) => {
      steps.push(step);
    },
  };
}
