// @ts-check
// Worker thread for the runner's off-loop work (see offload-tasks.ts): plain JavaScript so Node
// runs it from the sources and from the build alike. The tasks come from the package's build
// (`@hookflow/transforms/offload-tasks`), the same code the runner uses on the event loop.
import { parentPort } from "node:worker_threads";

/** The package's own export, resolved from its build (a variable: the type checker skips it). */
const TASKS_MODULE = "@hookflow/transforms/offload-tasks";
/** @type {{ createOffloadTasks(): { run(task: unknown): unknown } }} */
const { createOffloadTasks } = await import(TASKS_MODULE);

if (!parentPort) throw new Error("offload-worker.mjs runs as a worker thread");
const port = parentPort;
const tasks = createOffloadTasks();

port.on("message", (/** @type {{ id: number, task: unknown }} */ job) => {
  try {
    port.postMessage({ id: job.id, answer: tasks.run(job.task) });
  } catch (error) {
    port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
port.postMessage({ ready: true });
