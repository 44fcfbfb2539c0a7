/**
 * V8 flags every Hookflow process starts with (`pnpm start`, the Docker image's entrypoint, the
 * processes `hookflow start` and the benches launch). Node 22 and later size V8's young
 * generation by the machine's memory, up to 64 MB per semi-space (128 MB of new space a process
 * keeps once module loading grew it, about 100 MB more RSS per process than Node 20); 16 MB is
 * Node 20's size, with no loss of throughput measured for the HTTP roles (docs/benchmarks.md).
 * It must be given on the command line: V8 sizes the heap when the process starts, so
 * `v8.setFlagsFromString` is too late for it.
 */
export const NODE_FLAGS = ["--max-semi-space-size=16"] as const;

/**
 * The worker role's flags, in place of `NODE_FLAGS`. A worker keeps hundreds of deliveries in
 * flight, and with 16 MB semi-spaces a scavenge came every 30 to 40 ms, before most of them had
 * finished: each one copied 3 to 4 MB of live deliveries and promoted 2 MB of them, and the GC
 * threads spent 120 µs per delivered event. With 32 MB they spend about 90 µs and one worker
 * drains 9 % more events per second, for about 25 MB more RSS (docs/benchmarks.md, section
 * "The worker's young generation").
 */
export const WORKER_NODE_FLAGS = ["--max-semi-space-size=32"] as const;

/**
 * Node flags for a worker process forked by a process started with `execArgv`: the parent's
 * flags, with Hookflow's own young-generation size swapped for the worker's. A size the user
 * chose (anything other than `NODE_FLAGS`) is passed on unchanged.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const ours = new Set<string>(NODE_FLAGS);
  if (!NODE_FLAGS.every((flag) => execArgv.includes(flag))) return [...execArgv];
  return [...execArgv.filter((flag) => !ours.has(flag)), ...WORKER_NODE_FLAGS];
}
