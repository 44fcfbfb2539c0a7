import type { StreamEnd } from "./run-event-stream.js";

/** The streams this process holds open, so shutdown can end them and metrics can count them. */
export interface OpenStreams {
  add: (end: (reason: StreamEnd) => void) => () => void;
  count: () => number;
  /** Ends every open stream (graceful shutdown). */
  endAll: () => void;
}

export function createOpenStreams(): OpenStreams {
  const open = new Set<(reason: StreamEnd) => void>();
  return {
    add: (end) => {
      open.add(end);
      return () => {
        open.delete(end);
      };
    },
    count: () => open.size,
    endAll: () => {
      for (const end of [...open]) end("shutdown");
      open.clear();
    },
  };
}
