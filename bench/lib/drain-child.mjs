// Runs bench/drain.mjs (Hookflow's worker draining a backlog against a bare BullMQ + undici
// worker) in a child process and resolves with its machine-readable summary line.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const DRAIN = fileURLToPath(new URL("../drain.mjs", import.meta.url));

/** `{hookflow, bare, pairedRatio}` (events/s, jobs/s, median of per-round ratios). */
export function drainComparison(rounds) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRAIN], {
      env: { ...process.env, BENCH_ROUNDS: process.env.BENCH_DRAIN_ROUNDS ?? String(rounds) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("DRAIN_JSON "));
      if (code !== 0 || !line) return reject(new Error(`bench/drain.mjs exited ${code}`));
      resolve(JSON.parse(line.slice("DRAIN_JSON ".length)));
    });
  });
}
