import { availableParallelism } from "node:os";
import type { HookflowConfig } from "@hookflow/config";
import {
  createLogger,
  createMetrics,
  type Logger,
  type Metrics,
  type MetricsServer,
  startMetricsServer,
} from "@hookflow/observability";
import { composeFetch } from "../compose-fetch.js";
import { type Listening, listen, waitForShutdownSignal } from "../listen.js";
import { workerExecArgv } from "../node-flags.js";
import { buildComponent, type Component, migrate, type Role } from "../roles.js";
import {
  announceReady,
  isSupervisedChild,
  parentGone,
  serveMetricsToParent,
} from "../supervise/supervised-child.js";
import { startWorkerProcesses, type WorkerProcesses } from "../supervise/worker-processes.js";
import { parseStartArgs, resolveWorkerProcesses } from "./start-args.js";

/** Requests in flight get this long after SIGTERM before their connections are cut. */
const REQUEST_GRACE_MS = 10_000;
/** Past this the process gives up on a clean shutdown and exits 1. */
const SHUTDOWN_DEADLINE_MS = 60_000;

/** Stops components in order, one failure not preventing the next; true when all stopped. */
async function stopAll(components: Component[], logger: Logger): Promise<boolean> {
  let clean = true;
  for (const component of components) {
    try {
      await component.stop();
    } catch (error) {
      clean = false;
      logger.error({ err: error, component: component.role }, "stop failed");
    }
  }
  return clean;
}

/** The roles running in this process, in stop order: the worker first, then ingress. */
function rolesInProcess(role: Role | "all", workerProcesses: number): Role[] {
  if (role !== "all") return [role];
  return workerProcesses > 0
    ? ["ingress", "stream", "api"]
    : ["worker", "ingress", "stream", "api"];
}

interface Running {
  server: Listening;
  components: Component[];
  workers: WorkerProcesses | null;
  metricsServer: MetricsServer | null;
}

/** Builds the roles of this process, forks the worker processes, and listens on PORT. */
async function bringUp(
  role: Role | "all",
  workerProcesses: number,
  config: HookflowConfig,
  metrics: Metrics,
  logger: Logger,
): Promise<Running> {
  const components: Component[] = [];
  let metricsServer: MetricsServer | null = null;
  // The worker processes boot while this process builds its own roles.
  const forking =
    workerProcesses > 0
      ? startWorkerProcesses({
          count: workerProcesses,
          entry: process.argv[1] ?? "",
          execArgv: workerExecArgv(process.execArgv),
          env: process.env,
          logger,
        })
      : Promise.resolve(null);
  try {
    for (const name of rolesInProcess(role, workerProcesses)) {
      components.push(await buildComponent(name, config, metrics));
    }
    const workers = await forking;
    if (config.metrics) {
      // Prometheus metrics of every role (worker processes included) on their own listener.
      const others = workers ? () => workers.metrics() : undefined;
      metricsServer = await startMetricsServer({ metrics, ...config.metrics, others });
    }
    const byRole = (name: Role) => {
      const found = components.find((component) => component.role === name);
      if (!found) throw new Error(`role ${name} is not running`);
      return found.fetch;
    };
    const fetch =
      role === "all"
        ? composeFetch({ api: byRole("api"), ingress: byRole("ingress"), stream: byRole("stream") })
        : byRole(role);
    const server = await listen(fetch, { host: config.host, port: config.port });
    for (const component of components) await component.start();
    return { server, components, workers, metricsServer };
  } catch (error) {
    await forking.then((workers) => workers?.stop()).catch(() => {});
    await stopAll(components, logger);
    await metricsServer?.close();
    throw error;
  }
}

/**
 * `hookflow start [--role r] [--worker-processes n]`. Without a role every role runs behind one
 * port: `/api/in/*` goes to ingress, `/api/events/:id/stream` to stream, the rest to the api; the
 * worker runs in child processes of its own (one by default on a machine with two or more cores)
 * or, with `--worker-processes 0`, in this process. Resolves with the exit code once
 * SIGTERM/SIGINT has been handled.
 */
export async function run(args: string[], config: HookflowConfig): Promise<number> {
  const parsed = parseStartArgs(args);
  if ("error" in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  const { role } = parsed;
  const workerProcesses =
    role === "all" ? resolveWorkerProcesses(parsed.workerProcesses, availableParallelism()) : 0;
  const supervised = isSupervisedChild();
  const logger = createLogger({ level: config.logLevel, role: role === "all" ? "hookflow" : role });
  for (const warning of config.warnings) logger.warn(warning);

  if (role === "all" || role === "api") await migrate(config);
  const metrics = createMetrics({ role });
  if (supervised) serveMetricsToParent(metrics);
  const running = await bringUp(role, workerProcesses, config, metrics, logger);
  const { server, components, workers, metricsServer } = running;
  logger.info(
    {
      port: server.port,
      url: `http://localhost:${server.port}`,
      metricsPort: metricsServer?.port ?? null,
      roles: rolesInProcess(role, workerProcesses),
      workerProcesses: workers?.pids() ?? [],
    },
    // A worker process of a `hookflow start` says so: "hookflow listening" is the parent's line.
    supervised ? "worker process listening" : "hookflow listening",
  );
  if (supervised) announceReady();

  const signal = await Promise.race([
    waitForShutdownSignal(),
    ...(supervised ? [parentGone()] : []),
  ]);
  logger.info({ signal }, "shutting down");
  const deadline = setTimeout(() => {
    logger.error("shutdown took too long; exiting");
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  // Worker processes first: they finish their in-flight jobs while the http side drains.
  const workersStopped = workers?.stop();
  for (const component of components) component.release();
  await server.close(REQUEST_GRACE_MS);
  const clean = await stopAll(components, logger);
  await workersStopped;
  await metricsServer?.close();
  clearTimeout(deadline);
  logger.info("stopped");
  return clean ? 0 : 1;
}
