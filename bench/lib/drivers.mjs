// Load drivers: a Node client (undici) in a child process for open loops and as a fallback, and
// wrk for closed-loop peaks when it is installed.
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { wrkClosedLoop, wrkVersion } from "./wrk.mjs";

const CHILD = fileURLToPath(new URL("./load-child.mjs", import.meta.url));

/** Runs one load job in a fresh child process and resolves with its result. */
export function inChild(kind, options, { collectIds = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    child.once("message", (msg) => {
      child.kill();
      if (msg.ok) resolve(msg.result);
      else reject(new Error(msg.error));
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      if (code !== 0 && code !== null) reject(new Error(`load child exited ${code}`));
    });
    child.send({ kind, options, collectIds });
  });
}

export const wrk = wrkVersion();

/** Closed-loop peak: wrk when available (unless BENCH_DRIVER=node), else the Node client. */
export function peak(options) {
  if (wrk && process.env.BENCH_DRIVER !== "node") return wrkClosedLoop(options);
  return inChild("closed", options);
}

/**
 * Unmeasured load run before every closed-loop peak (BENCH_WARMUP_SECONDS, default 3; 0 turns it
 * off): a freshly started server compiles its hot path and grows its heap during its first
 * seconds, and a peak that starts cold reports that start-up, not the server's rate (in its first
 * 5 s the ingress answered up to a quarter fewer requests, at up to 1.8 times the CPU per request,
 * than in the next; docs/benchmarks.md, "Peaks measured warm"). Every server a peak compares is
 * warmed the same way.
 */
export const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3) * 1000;

/** Runs `options`' load for WARMUP_MS with the peak's driver; resolves with that run (or null). */
export function warmUp(options) {
  if (WARMUP_MS <= 0) return Promise.resolve(null);
  return peak({ ...options, durationMs: WARMUP_MS });
}

export const peakDriverName = () =>
  wrk && process.env.BENCH_DRIVER !== "node" ? wrk : "node undici client (child process)";
