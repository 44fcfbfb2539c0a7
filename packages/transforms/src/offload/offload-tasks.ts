import { compileUserPattern, type UserPatternResult } from "@hookflow/domain";
import { createHandlebarsEngine, type HandlebarsEngine } from "../handlebars/handlebars-engine.js";
import type { TransformOutcome } from "../types.js";

/**
 * Work the runner moves off the event loop to a worker thread it can stop: pattern checks too
 * costly to match inline, and Handlebars renders that ran past their inline slice.
 */
export type OffloadTask =
  | { type: "patterns"; checks: Array<{ source: string; value: string }> }
  | {
      type: "handlebars";
      template: string;
      payloadJson: string;
      maxOutputBytes: number;
      maxIterations: number;
    };

export type OffloadAnswer =
  | { type: "patterns"; results: Array<boolean | string> }
  | { type: "handlebars"; outcome: TransformOutcome };

const PATTERN_CACHE_MAX = 1000;

/** The thread's state: compiled patterns and one Handlebars engine per set of limits. */
export function createOffloadTasks(): { run(task: OffloadTask): OffloadAnswer } {
  const patterns = new Map<string, UserPatternResult>();
  const engines = new Map<string, HandlebarsEngine>();

  function compiled(source: string): UserPatternResult {
    let found = patterns.get(source);
    if (!found) {
      found = compileUserPattern(source);
      if (patterns.size >= PATTERN_CACHE_MAX) patterns.clear();
      patterns.set(source, found);
    }
    return found;
  }

  function engineFor(maxOutputBytes: number, maxIterations: number): HandlebarsEngine {
    const key = `${maxOutputBytes}:${maxIterations}`;
    let engine = engines.get(key);
    if (!engine) {
      // No slice: the pool's time limit stops this thread instead.
      engine = createHandlebarsEngine({
        cacheSize: 100,
        maxOutputBytes,
        maxIterations,
        sliceMs: Number.POSITIVE_INFINITY,
      });
      engines.set(key, engine);
    }
    return engine;
  }

  return {
    run(task) {
      switch (task.type) {
        case "patterns":
          return {
            type: "patterns",
            results: task.checks.map(({ source, value }) => {
              const pattern = compiled(source);
              return pattern.ok ? pattern.pattern.test(value) : pattern.error;
            }),
          };
        case "handlebars": {
          const engine = engineFor(task.maxOutputBytes, task.maxIterations);
          const outcome = engine.render(task.template, JSON.parse(task.payloadJson));
          return {
            type: "handlebars",
            outcome:
              typeof outcome === "string"
                ? { ok: false, error: "handlebars render could not finish" }
                : outcome,
          };
        }
      }
    },
  };
}
