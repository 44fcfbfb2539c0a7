import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use by this (host) process after a full collection. */
export function hostHeapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

const MARKER = "__hookflowHostMarker";

/** Marks the host realm so a test can prove sandboxed code never reached it. */
export function markHost(): void {
  Reflect.set(globalThis, MARKER, "untouched");
}

export function hostLooksUntouched(): boolean {
  const probe: Record<string, unknown> = {};
  return (
    Reflect.get(globalThis, MARKER) === "untouched" &&
    probe.polluted === undefined &&
    [1, 2].map((n) => n * 2).join() === "2,4" &&
    JSON.stringify({ a: 1 }) === '{"a":1}'
  );
}
