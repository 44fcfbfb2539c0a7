import { readFileSync } from "node:fs";
import type { HookflowConfig } from "@hookflow/config";
import { events } from "./client/events.js";
import { listen } from "./client/listen-forward.js";
import { login, logout } from "./client/login.js";
import type { ClientContext } from "./client/run-client.js";
import { webhooks } from "./client/webhooks.js";
import { run as adminCreateKey } from "./commands/admin-create-key.js";
import { run as adminCreateUser } from "./commands/admin-create-user.js";
import { run as adminRotateEncryptionKey } from "./commands/admin-rotate-encryption-key.js";
import { run as adminSetPlan } from "./commands/admin-set-plan.js";
import { run as migrate } from "./commands/migrate.js";
import { run as start } from "./commands/start.js";
import { readClientEnv } from "./env.js";
import { USAGE } from "./usage.js";

type Command = (args: string[], config: HookflowConfig) => Promise<number>;

const ADMIN: Record<string, Command> = {
  "create-user": adminCreateUser,
  "create-key": adminCreateKey,
  "rotate-encryption-key": adminRotateEncryptionKey,
  "set-plan": adminSetPlan,
};

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return String((manifest as { version?: unknown }).version ?? "unknown");
}

function usageError(message: string): number {
  process.stderr.write(`hookflow: ${message}\n\n${USAGE}`);
  return 2;
}

/** The client commands' context: stdout/stderr, the environment, and Ctrl-C as an abort. */
function clientContext(): ClientContext {
  const abort = new AbortController();
  const stop = () => abort.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return {
    io: { stdout: process.stdout, stderr: process.stderr },
    env: readClientEnv(),
    signal: abort.signal,
  };
}

/**
 * Picks the command from argv and runs it with the configuration. The configuration is read
 * only for commands that need it, so `--help` works with a broken environment.
 */
export async function dispatch(argv: string[], readConfig: () => HookflowConfig): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      return usageError("missing command");
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return 0;
    case "version":
    case "--version":
    case "-v":
      process.stdout.write(`${version()}\n`);
      return 0;
    case "start":
      return start(rest, readConfig());
    case "migrate":
      return migrate(rest, readConfig());
    case "admin": {
      const [sub, ...subArgs] = rest;
      const admin = sub ? ADMIN[sub] : undefined;
      if (!admin) return usageError(`unknown admin command: ${sub ?? "(none)"}`);
      return admin(subArgs, readConfig());
    }
    case "login":
      return login(clientContext(), rest);
    case "logout":
      return logout(clientContext());
    case "webhooks":
      return webhooks(clientContext(), rest);
    case "events":
      return events(clientContext(), rest);
    case "listen":
      return listen(clientContext(), rest);
    default:
      return usageError(`unknown command: ${command}`);
  }
}
