/** Runs at most `limit` tasks at once, the rest in arrival order. */
export function createTurns(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running < limit) running += 1;
    else await new Promise<void>((resume) => waiting.push(resume));
    try {
      return await task();
    } finally {
      // Hand the slot to the next in line, or free it.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
