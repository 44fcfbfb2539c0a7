/** Thrown inside a render when it writes or loops more than allowed; caught by the engine. */
export class RenderBudgetExceeded extends Error {}

/**
 * What one render may spend. Static text is bounded by the template's size times the loop
 * iterations; values and loop bodies are counted as they are written (nested loops count their
 * body more than once, so the character budget is a multiple of the output limit).
 */
export interface RenderBudget {
  iterate(): void;
  write(chars: number): void;
}

export function createRenderBudget(maxIterations: number, maxChars: number): RenderBudget {
  let iterations = 0;
  let chars = 0;
  return {
    iterate() {
      iterations++;
      if (iterations > maxIterations) {
        throw new RenderBudgetExceeded(`template exceeds ${maxIterations} #each iterations`);
      }
    },
    write(count) {
      chars += count;
      if (chars > maxChars) {
        throw new RenderBudgetExceeded(`template output exceeds the ${maxChars}-character budget`);
      }
    },
  };
}
