import { NODE_FLAGS, WORKER_NODE_FLAGS, workerExecArgv } from "./node-flags.js";

describe("workerExecArgv", () => {
  it("swaps Hookflow's young-generation size for the worker's and keeps the other flags", () => {
    expect(workerExecArgv(["--enable-source-maps", ...NODE_FLAGS, "--trace-warnings"])).toEqual([
      "--enable-source-maps",
      "--trace-warnings",
      ...WORKER_NODE_FLAGS,
    ]);
  });

  it("passes on a size the user chose, and no flags when the parent had none", () => {
    expect(workerExecArgv(["--max-semi-space-size=64"])).toEqual(["--max-semi-space-size=64"]);
    expect(workerExecArgv([])).toEqual([]);
  });
});
