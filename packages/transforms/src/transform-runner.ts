import type { z } from "zod";
import {
  createHandlebarsEngine,
  GIVE_WAY,
  type HandlebarsEngine,
} from "./handlebars/handlebars-engine.js";
import { createJsPool, type JsPool } from "./javascript/js-pool.js";
import { createInlineJq, type InlineJq } from "./jq/inline/inline-jq.js";
import { createJqPool } from "./jq/jq-pool.js";
import type { JqPool } from "./jq/jq-pool-options.js";
import { createOffloadPool, type OffloadPool } from "./offload/offload-pool.js";
import { TransformRunnerOptions } from "./options.js";
import type { TransformInput, TransformOutcome, TransformResult } from "./types.js";

export type PatternMatchResult =
  | { ok: true; results: Array<boolean | string> }
  | { ok: false; error: string };

export interface TransformRunner {
  /** Runs one transform. Safe to call concurrently; never rejects for problems of user code. */
  run(input: TransformInput): Promise<TransformResult>;
  /**
   * Tests each value against its pattern on the linear-time engine, off the event loop and under
   * `offloadTimeoutMs`: true or false per check, or why its pattern cannot run.
   */
  matchPatterns(
    checks: ReadonlyArray<{ source: string; value: string }>,
  ): Promise<PatternMatchResult>;
  /** Stops the worker threads and sandbox processes; calls still waiting fail. */
  close(): Promise<void>;
}

/** The options with every default filled in. */
type RunnerSettings = z.output<typeof TransformRunnerOptions>;

/** The runner's engines and call count, passed to each function below. */
interface RunnerState {
  settings: RunnerSettings;
  handlebars: HandlebarsEngine;
  offload: OffloadPool;
  jq: JqPool;
  js: JsPool;
  inlineJq: InlineJq | undefined;
  closed: boolean;
  // Threads and sandbox processes are unref'd so an idle runner never holds the process open;
  // while calls are in flight this timer does.
  inFlight: number;
  keepAlive: NodeJS.Timeout | undefined;
}

/**
 * The executors of transform nodes, one runner per process (the worker's pipeline and the time
 * travel dry run share it): Handlebars on the calling thread for a slice of time (on an offload
 * thread past it), jq on the calling thread when the
 * inline evaluator can answer exactly (jq/inline) and on worker threads otherwise, JavaScript in
 * isolates inside sandbox processes. Threads and processes start on first use.
 */
export function createTransformRunner(options: TransformRunnerOptions = {}): TransformRunner {
  const state = createRunnerState(TransformRunnerOptions.parse(options));
  return {
    run: (input) => runTransform(state, input),
    matchPatterns: (checks) => matchPatternsOffThread(state, checks),
    close: () => closeRunner(state),
  };
}

function createRunnerState(settings: RunnerSettings): RunnerState {
  return {
    settings,
    handlebars: createHandlebarsEngine({
      cacheSize: settings.handlebarsCacheSize,
      maxOutputBytes: settings.maxOutputBytes,
      maxIterations: settings.handlebarsMaxIterations,
      sliceMs: settings.handlebarsSliceMs,
    }),
    offload: createOffloadPool({
      threads: settings.offloadThreads,
      timeoutMs: settings.offloadTimeoutMs,
      memoryLimitMb: settings.offloadMemoryLimitMb,
    }),
    jq: createJqPool({
      workers: settings.jqWorkers,
      timeoutMs: settings.jqTimeoutMs,
      maxBatch: settings.jqMaxBatch,
      maxBatchBytes: settings.jqMaxBatchBytes,
      recycleMemoryBytes: settings.jqRecycleMemoryMb * 1024 * 1024,
      memoryLimitBytes: settings.jqMemoryLimitMb * 1024 * 1024,
      maxOutputBytes: settings.maxOutputBytes,
      gatherMs: settings.jqGatherMs,
    }),
    js: createJsPool({
      processes: settings.jsProcesses,
      cpuLimitMs: settings.jsCpuLimitMs,
      memoryLimitMb: settings.jsMemoryLimitMb,
      watchdogGraceMs: settings.jsWatchdogGraceMs,
      maxBatch: settings.jsMaxBatch,
      maxOutputBytes: settings.maxOutputBytes,
      warmContexts: settings.jsWarmContexts,
      gatherMs: settings.jsGatherMs,
    }),
    inlineJq: settings.jqInline
      ? createInlineJq({
          maxOutputBytes: settings.maxOutputBytes,
          maxInputChars: settings.jqInlineMaxInputChars,
          budget: settings.jqInlineBudget,
        })
      : undefined,
    closed: false,
    inFlight: 0,
    keepAlive: undefined,
  };
}

async function runTransform(state: RunnerState, input: TransformInput): Promise<TransformResult> {
  if (state.closed) throw new Error("the transform runner is closed");
  const started = performance.now();
  beginCall(state);
  try {
    const outcome = await execute(state, input);
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    return { ...outcome, durationMs };
  } finally {
    endCall(state);
  }
}

async function matchPatternsOffThread(
  state: RunnerState,
  checks: ReadonlyArray<{ source: string; value: string }>,
): Promise<PatternMatchResult> {
  if (state.closed) throw new Error("the transform runner is closed");
  beginCall(state);
  try {
    const result = await state.offload.run({ type: "patterns", checks: [...checks] });
    if (!result.ok) return { ok: false, error: `pattern matching ${result.error}` };
    return result.answer.type === "patterns"
      ? { ok: true, results: result.answer.results }
      : { ok: false, error: "pattern matching got a wrong answer" };
  } finally {
    endCall(state);
  }
}

async function closeRunner(state: RunnerState): Promise<void> {
  state.closed = true;
  await Promise.all([state.jq.close(), state.js.close(), state.offload.close()]);
}

/** The first call in flight starts the keep-alive timer. */
function beginCall(state: RunnerState): void {
  if (state.inFlight++ === 0) state.keepAlive = setInterval(() => undefined, 60_000);
}

/** The last call in flight stops the keep-alive timer. */
function endCall(state: RunnerState): void {
  if (--state.inFlight === 0) clearInterval(state.keepAlive);
}

async function execute(state: RunnerState, input: TransformInput): Promise<TransformOutcome> {
  switch (input.mode) {
    case "handlebars": {
      const inline = state.handlebars.render(input.template, input.payload);
      if (inline !== GIVE_WAY) return inline;
      const json = input.payloadJson ?? payloadJson(input.payload);
      if (json === undefined) return TOO_DEEP;
      const result = await state.offload.run({
        type: "handlebars",
        template: input.template,
        payloadJson: json,
        maxOutputBytes: state.settings.maxOutputBytes,
        maxIterations: state.settings.handlebarsMaxIterations,
      });
      if (!result.ok) return { ok: false, error: `handlebars template ${result.error}` };
      return result.answer.type === "handlebars"
        ? result.answer.outcome
        : { ok: false, error: "handlebars template got a wrong answer" };
    }
    case "jq": {
      const json = input.payloadJson ?? payloadJson(input.payload);
      if (json === undefined) return TOO_DEEP;
      const inline = state.inlineJq?.run(input.template, input.payload, json);
      if (inline) return inline;
      return state.jq.run(
        `${input.context.webhookId}\u0000${input.template}`,
        input.template,
        json,
      );
    }
    case "javascript": {
      const json = input.payloadJson ?? payloadJson(input.payload);
      if (json === undefined) return TOO_DEEP;
      return state.js.run(
        `${input.context.webhookId}\u0000${input.context.nodeId}`,
        input.template,
        `{"payload":${json},"context":${JSON.stringify({
          eventId: input.context.eventId,
          webhookId: input.context.webhookId,
          nodeId: input.context.nodeId,
        })}}`,
      );
    }
    default: {
      const mode: never = input.mode;
      throw new TypeError(`unknown transform mode: ${String(mode)}`);
    }
  }
}

/**
 * The payload's JSON text; undefined when it is nested too deeply to serialize. Payloads reach the
 * node as parsed JSON; anything else is a caller's bug.
 */
function payloadJson(payload: unknown): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(payload);
  } catch (error) {
    // Nested thousands of levels deep, the serializer runs out of stack: the node fails.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  if (json === undefined) throw new TypeError("the transform payload is not a JSON value");
  return json;
}

const TOO_DEEP: TransformOutcome = {
  ok: false,
  error: "the payload is nested too deeply to serialize",
};
