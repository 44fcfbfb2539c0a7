/** Thrown inside a render when it writes or loops more than allowed; caught by the engine. */
export class RenderBudgetExceeded extends Error {}

/** Thrown inside an inline render that ran past its slice of the event loop: it gives way. */
export class InlineSliceSpent extends Error {}

/**
 * What one render may spend. Static text is bounded by the template's size times the loop
 * iterations; values, serialized values (`json`, objects) and loop bodies are counted as they are
 * written (nested loops count their body more than once, so the character budget is a multiple
 * of the output limit). Every helper call and loop turn is a step; an inline render (on the
 * event loop) reads the clock every 32 steps and stops once it has run `sliceMs`, so the caller
 * can run it again off the event loop. A step costs at most about the template's length in work
 * (a long path, many arguments), so 32 of them stay well under a millisecond for any template.
 */
export interface RenderBudget {
  iterate(): void;
  step(): void;
  write(chars: number): void;
}

export interface RenderLimits {
  maxIterations: number;
  maxChars: number;
  /** Wall-clock time the render may hold the calling thread; Infinity off the event loop. */
  sliceMs: number;
}

const STEPS_PER_CLOCK_READ = 32;

export function createRenderBudget(limits: RenderLimits): RenderBudget {
  let iterations = 0;
  let chars = 0;
  let steps = 0;
  const started = performance.now();
  const step = () => {
    steps++;
    if (steps % STEPS_PER_CLOCK_READ === 0 && performance.now() - started > limits.sliceMs) {
      throw new InlineSliceSpent("the render gives way to a worker thread");
    }
  };
  return {
    iterate() {
      iterations++;
      if (iterations > limits.maxIterations) {
        throw new RenderBudgetExceeded(`template exceeds ${limits.maxIterations} #each iterations`);
      }
      step();
    },
    step,
    write(count) {
      chars += count;
      if (chars > limits.maxChars) {
        throw new RenderBudgetExceeded(
          `template exceeds its budget of ${limits.maxChars} characters written or serialized`,
        );
      }
      step();
    },
  };
}
