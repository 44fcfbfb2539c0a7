/**
 * V8 flags every Hookflow process starts with (`pnpm start`, the Docker image's entrypoint, the
 * processes `hookflow start` and the benches launch). Node 22 and later size V8's young
 * generation by the machine's memory, up to 64 MB per semi-space (128 MB of new space a process
 * keeps once module loading grew it, about 100 MB more RSS per process than Node 20); 16 MB is
 * Node 20's size, with no loss of throughput measured (docs/benchmarks.md). It must be given on
 * the command line: V8 sizes the heap when the process starts, so `v8.setFlagsFromString` is too
 * late for it.
 */
export const NODE_FLAGS = ["--max-semi-space-size=16"] as const;
