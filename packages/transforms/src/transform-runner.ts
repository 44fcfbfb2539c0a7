import { createHandlebarsEngine } from "./handlebars/handlebars-engine.js";
import { createJsPool } from "./javascript/js-pool.js";
import { createInlineJq } from "./jq/inline/inline-jq.js";
import { createJqPool } from "./jq/jq-pool.js";
import { TransformRunnerOptions } from "./options.js";
import type { TransformInput, TransformOutcome, TransformResult } from "./types.js";

export interface TransformRunner {
  /** Runs one transform. Safe to call concurrently; never rejects for problems of user code. */
  run(input: TransformInput): Promise<TransformResult>;
  /** Stops the worker threads and sandbox processes; calls still waiting fail. */
  close(): Promise<void>;
}

/**
 * The executors of transform nodes, one runner per process (the worker's pipeline and the time
 * travel dry run share it): Handlebars on the calling thread, jq on the calling thread when the
 * inline evaluator can answer exactly (jq/inline) and on worker threads otherwise, JavaScript in
 * isolates inside sandbox processes. Threads and processes start on first use.
 */
export function createTransformRunner(options: TransformRunnerOptions = {}): TransformRunner {
  const settings = TransformRunnerOptions.parse(options);
  const handlebars = createHandlebarsEngine({
    cacheSize: settings.handlebarsCacheSize,
    maxOutputBytes: settings.maxOutputBytes,
    maxIterations: settings.handlebarsMaxIterations,
  });
  const jq = createJqPool({
    workers: settings.jqWorkers,
    timeoutMs: settings.jqTimeoutMs,
    maxBatch: settings.jqMaxBatch,
    maxBatchBytes: settings.jqMaxBatchBytes,
    recycleMemoryBytes: settings.jqRecycleMemoryMb * 1024 * 1024,
    maxOutputBytes: settings.maxOutputBytes,
    gatherMs: settings.jqGatherMs,
  });
  const js = createJsPool({
    processes: settings.jsProcesses,
    cpuLimitMs: settings.jsCpuLimitMs,
    memoryLimitMb: settings.jsMemoryLimitMb,
    watchdogGraceMs: settings.jsWatchdogGraceMs,
    maxBatch: settings.jsMaxBatch,
    maxOutputBytes: settings.maxOutputBytes,
    warmContexts: settings.jsWarmContexts,
    gatherMs: settings.jsGatherMs,
  });
  const inlineJq = settings.jqInline
    ? createInlineJq({
        maxOutputBytes: settings.maxOutputBytes,
        maxInputChars: settings.jqInlineMaxInputChars,
        budget: settings.jqInlineBudget,
      })
    : undefined;
  let closed = false;
  // Threads and sandbox processes are unref'd so an idle runner never holds the process open;
  // while calls are in flight this timer does.
  let inFlight = 0;
  let keepAlive: NodeJS.Timeout | undefined;

  async function execute(input: TransformInput): Promise<TransformOutcome> {
    switch (input.mode) {
      case "handlebars":
        return handlebars.render(input.template, input.payload);
      case "jq": {
        const json = input.payloadJson ?? payloadJson(input.payload);
        if (json === undefined) return TOO_DEEP;
        const inline = inlineJq?.run(input.template, input.payload, json);
        if (inline) return inline;
        return jq.run(`${input.context.webhookId}\u0000${input.template}`, input.template, json);
      }
      case "javascript": {
        const json = input.payloadJson ?? payloadJson(input.payload);
        if (json === undefined) return TOO_DEEP;
        return js.run(
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

  return {
    async run(input) {
      if (closed) throw new Error("the transform runner is closed");
      const started = performance.now();
      if (inFlight++ === 0) keepAlive = setInterval(() => undefined, 60_000);
      try {
        const outcome = await execute(input);
        const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
        return { ...outcome, durationMs };
      } finally {
        if (--inFlight === 0) clearInterval(keepAlive);
      }
    },
    async close() {
      closed = true;
      await Promise.all([jq.close(), js.close()]);
    },
  };
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
