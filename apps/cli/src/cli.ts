import { readFileSync } from "node:fs";
import type { HookflowConfig } from "@hookflow/config";
import type { ClientContext } from "./client/run-client.js";
import { readClientEnv } from "./env.js";
import { USAGE } from "./usage.js";

type Command = (args: string[], config: HookflowConfig) => Promise<number>;

/**
 * Each command's module is imported when it runs, not before: `hookflow start --role ingress`
 * then loads the ingress's code only, not the API client, the service layer or the node graph
 * the other commands use (about 1.4 MB of module source, kept in memory for the process's life).
 */
const ADMIN: Record<string, () => Promise<{ run: Command }>> = {
  "create-user": () => import("./commands/admin-create-user.js"),
  "create-key": () => import("./commands/admin-create-key.js"),
  "rotate-encryption-key": () => import("./commands/admin-rotate-encryption-key.js"),
  "set-plan": () => import("./commands/admin-set-plan.js"),
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
      return (await import("./commands/start.js")).run(rest, readConfig());
    case "migrate":
      return (await import("./commands/migrate.js")).run(rest, readConfig());
    case "admin": {
      const [sub, ...subArgs] = rest;
      const admin = sub ? ADMIN[sub] : undefined;
      if (!admin) return usageError(`unknown admin command: ${sub ?? "(none)"}`);
      return (await admin()).run(subArgs, readConfig());
    }
    case "login":
      return (await import("./client/login.js")).login(clientContext(), rest);
    case "logout":
      return (await import("./client/login.js")).logout(clientContext());
    case "webhooks":
      return (await import("./client/webhooks.js")).webhooks(clientContext(), rest);
    case "events":
      return (await import("./client/events.js")).events(clientContext(), rest);
    case "listen":
      return (await import("./client/listen-forward.js")).listen(clientContext(), rest);
    default:
      return usageError(`unknown command: ${command}`);
  }
}
