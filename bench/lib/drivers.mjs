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

export const peakDriverName = () =>
  wrk && process.env.BENCH_DRIVER !== "node" ? wrk : "node undici client (child process)";
