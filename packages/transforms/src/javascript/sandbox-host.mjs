// @ts-check
// Entry of a JavaScript sandbox process (started by sandbox-process.ts for js-pool.ts, with
// --no-node-snapshot, which isolated-vm needs on Node 20 and later). Runs a batch of calls one after
// another, synchronously, and answers with all their results in one message on the IPC channel.
import { createSandbox } from "./sandbox.mjs";

const send = process.send?.bind(process);
if (!send) throw new Error("sandbox-host.mjs runs as a child process with an IPC channel");

const sandbox = createSandbox(JSON.parse(process.argv[2] ?? "{}"));
let spareScheduled = false;

process.on("message", (/** @type {import("./sandbox-messages.js").SandboxBatch} */ batch) => {
  const results = batch.calls.map(([program, input]) => {
    const [scope, code] = batch.programs[program] ?? ["", ""];
    try {
      return sandbox.run(scope, code, input);
    } catch (error) {
      return { ok: false, error: `sandbox error: ${String(error)}` };
    }
  });
  send({ type: "results", id: batch.id, results });
  // Once the answer is on its way, harden a context for the next new node while the worker is busy.
  if (spareScheduled) return;
  spareScheduled = true;
  setImmediate(() => {
    spareScheduled = false;
    sandbox.prepareSpare();
  });
});
// The worker went away: nothing left to serve.
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
