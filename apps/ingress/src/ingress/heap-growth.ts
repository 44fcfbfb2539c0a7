import { setFlagsFromString } from "node:v8";

/**
 * Old-generation growth factor, as a percentage over the live heap after a full GC. V8's default
 * lets a server heap grow to several times its live size before collecting: under load the
 * ingress (about 35 MB live) reached 270 MB RSS with the old space mostly garbage promoted by
 * requests that were merely slow to finish. At 30 % a full GC runs once the old space is 1.3 times
 * what survived the last one, which bounds RSS by the live set instead of by the load. The cost
 * is more frequent (mostly concurrent) marking; `docs/benchmarks.md` has the measurements. The
 * flag is read at every GC, so setting it at startup works; it applies to the whole process.
 */
const HEAP_GROWING_PERCENT = 30;

export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT): void {
  setFlagsFromString(`--heap-growing-percent=${Math.max(1, Math.round(percent))}`);
}
