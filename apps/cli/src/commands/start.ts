import type { HookflowConfig } from "@hookflow/config";
import {
  createLogger,
  createMetrics,
  type Logger,
  type MetricsServer,
  startMetricsServer,
} from "@hookflow/observability";
import { composeFetch } from "../compose-fetch.js";
import { listen, waitForShutdownSignal } from "../listen.js";
import { buildComponent, type Component, migrate, type Role } from "../roles.js";
import { parseStartArgs } from "./start-args.js";

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

/**
 * `hookflow start [--role r]`. Without a role every role runs in this process behind one port;
 * `/api/in/*` goes to ingress, `/api/events/:id/stream` to stream, the rest to the api, and one
 * worker consumes the queues. Resolves with the exit code once SIGTERM/SIGINT has been handled.
 */
export async function run(args: string[], config: HookflowConfig): Promise<number> {
  const parsed = parseStartArgs(args);
  if ("error" in parsed) {
    process.stderr.write(`${parsed.error}\n`);
    return 2;
  }
  const { role } = parsed;
  const logger = createLogger({ level: config.logLevel, role: role === "all" ? "hookflow" : role });
  for (const warning of config.warnings) logger.warn(warning);

  if (role === "all" || role === "api") await migrate(config);
  const metrics = createMetrics({ role });
  // Stop order: the worker first (lets in-flight jobs finish), then ingress (flushes its
  // pending writes), then the rest.
  const roles: Role[] = role === "all" ? ["worker", "ingress", "stream", "api"] : [role];
  const components: Component[] = [];
  let server: Awaited<ReturnType<typeof listen>>;
  // Prometheus metrics of every role in this process, on their own listener (never on PORT).
  let metricsServer: MetricsServer | null = null;
  try {
    if (config.metrics) metricsServer = await startMetricsServer({ metrics, ...config.metrics });
    for (const name of roles) components.push(await buildComponent(name, config, metrics));
    const byRole = (name: Role) => {
      const found = components.find((component) => component.role === name);
      if (!found) throw new Error(`role ${name} is not running`);
      return found.fetch;
    };
    const fetch =
      role === "all"
        ? composeFetch({ api: byRole("api"), ingress: byRole("ingress"), stream: byRole("stream") })
        : byRole(role);
    server = await listen(fetch, { host: config.host, port: config.port });
    for (const component of components) await component.start();
    logger.info(
      {
        port: server.port,
        url: `http://localhost:${server.port}`,
        metricsPort: metricsServer?.port ?? null,
        roles,
      },
      "hookflow listening",
    );
  } catch (error) {
    await stopAll(components, logger);
    await metricsServer?.close();
    throw error;
  }

  const signal = await waitForShutdownSignal();
  logger.info({ signal }, "shutting down");
  const deadline = setTimeout(() => {
    logger.error("shutdown took too long; exiting");
    process.exit(1);
  }, SHUTDOWN_DEADLINE_MS);
  for (const component of components) component.release();
  await server.close(REQUEST_GRACE_MS);
  const clean = await stopAll(components, logger);
  await metricsServer?.close();
  clearTimeout(deadline);
  logger.info("stopped");
  return clean ? 0 : 1;
}
