import { setFlagsFromString } from "node:v8";

/**
 * Old-generation growth factor, as a percentage over the live heap after a full GC. V8's default
 * lets a server heap grow to several times its live size before collecting: under load the
 * ingress (about 35 MB live) reached 270 MB RSS with the old space mostly garbage promoted by
 * requests that were merely slow to finish. At 100 % a full GC runs once the old space is twice
 * what survived the last one, which bounds RSS by the live set instead of by the load.
 *
 * It was 30 %: at 3,000 requests/s that meant a full GC about every 0.9 s (each scavenge promotes
 * about 1 MB, mostly the batches' JSON for Postgres and Redis), and the requests waiting behind
 * those 4 to 13 ms pauses made most of the p99. At 100 % there are a third as many; in a probe at
 * 3,000 requests/s the p99 fell from 17 to 41 ms to 15 to 24 ms (the full bench moved less), for
 * 11 to 21 MB more peak RSS (docs/benchmarks.md, "The ingress's full collections").
 * The flag is read at every GC, so setting it at startup works; it applies to the whole process
 * (one process running several roles keeps the last one set, the ingress's).
 */
const HEAP_GROWING_PERCENT = 100;

export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${Math.max(1, Math.round(percent))}`);
}
