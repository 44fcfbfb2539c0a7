// @ts-check
// Entry of a JavaScript sandbox process (started by js-pool.ts with --no-node-snapshot, which
// isolated-vm needs on Node 20). One call at a time; answers on the IPC channel.
import { createSandbox } from "./sandbox.mjs";

const send = process.send?.bind(process);
if (!send) throw new Error("sandbox-host.mjs runs as a child process with an IPC channel");

const sandbox = createSandbox(JSON.parse(process.argv[2] ?? "{}"));

process.on("message", (/** @type {{ id: number, code: string, input: string }} */ job) => {
  sandbox.run(job.code, job.input).then(
    (result) => send({ type: "result", id: job.id, ...result }),
    (error) =>
      send({ type: "result", id: job.id, ok: false, error: `sandbox error: ${String(error)}` }),
  );
});
// The worker went away: nothing left to serve.
process.on("disconnect", () => process.exit(0));
send({ type: "ready" });
