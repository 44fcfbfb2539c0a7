import type { HookflowConfig } from "@hookflow/config";
import { migrateDatabase } from "@hookflow/db";
import { createKeyRing } from "@hookflow/domain";
import { createLogger, type Metrics } from "@hookflow/observability";
import type { Role } from "./commands/start-args.js";
import type { FetchHandler } from "./compose-fetch.js";

export type { Role };

/** One role inside a process: its HTTP app and how to stop it. */
export interface Component {
  role: Role;
  fetch: FetchHandler;
  /** Runs after the server listens (the worker starts consuming here). */
  start: () => Promise<void>;
  /**
   * Called on SIGTERM before the server stops taking requests: ends what would otherwise hold a
   * connection open for minutes (sync-mode waits answer 408, event streams end).
   */
  release: () => void;
  /** Graceful: in-flight work finishes, pending writes are flushed, connections close. */
  stop: () => Promise<void>;
}

const nothing = async () => {};
const nothingToRelease = () => {};

/**
 * Brings the schema up to date and seals credentials still stored in clear; replicas serialise
 * on an advisory lock inside.
 */
export async function migrate(config: HookflowConfig): Promise<void> {
  const logger = createLogger({ level: config.logLevel, role: "migrate" });
  await migrateDatabase({
    url: config.databaseUrl,
    keyRing: createKeyRing(config.encryptionKeys),
    log: (message) => logger.info(message),
  });
}

/**
 * Builds one role's services and app. The api role expects migrations to have run. Each role's
 * app is imported only when that role runs, so a single-role process does not carry the others'
 * code (about 19 MB of RSS for the ingress).
 */
export async function buildComponent(
  role: Role,
  config: HookflowConfig,
  metrics: Metrics,
): Promise<Component> {
  const logger = createLogger({ level: config.logLevel, role });
  switch (role) {
    case "api": {
      const { buildApiServices, createApiApp } = await import("@hookflow/api");
      const { ensureBootstrapUser } = await import("@hookflow/services");
      const services = buildApiServices({ config, logger, metrics });
      return {
        role,
        fetch: createApiApp(services).fetch,
        // HOOKFLOW_BOOTSTRAP_EMAIL/PASSWORD: the first user exists before anyone can sign up.
        start: async () => {
          const result = await ensureBootstrapUser(
            { db: services.db.db, now: services.now },
            config,
          );
          if (result?.created) logger.info({ userId: result.userId }, "bootstrap user created");
        },
        release: nothingToRelease,
        stop: () => services.close(),
      };
    }
    case "ingress": {
      const { buildIngressServices, createIngressApp } = await import("@hookflow/ingress");
      const services = buildIngressServices({ config, logger, metrics });
      return {
        role,
        fetch: createIngressApp(services).fetch,
        start: nothing,
        release: () => services.sync.releaseAll(),
        stop: () => services.close(),
      };
    }
    case "stream": {
      const { buildStreamServices, createStreamApp } = await import("@hookflow/stream");
      const services = buildStreamServices({ config, logger, metrics });
      return {
        role,
        fetch: createStreamApp(services).fetch,
        start: nothing,
        release: () => services.streams.endAll(),
        stop: () => services.close(),
      };
    }
    case "worker": {
      const { buildWorkerServices, createWorkerHttpApp, startWorker } = await import(
        "@hookflow/worker"
      );
      const services = buildWorkerServices({ config, logger, metrics });
      let running: { close: () => Promise<void> } | null = null;
      return {
        role,
        fetch: createWorkerHttpApp(services).fetch,
        start: async () => {
          running = await startWorker(services);
        },
        release: nothingToRelease,
        stop: async () => {
          await running?.close();
          await services.close();
        },
      };
    }
  }
}
