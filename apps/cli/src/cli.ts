import { readFileSync } from "node:fs";
import type { HookflowConfig } from "@hookflow/config";
import { run as adminCreateKey } from "./commands/admin-create-key.js";
import { run as adminCreateUser } from "./commands/admin-create-user.js";
import { run as adminRotateEncryptionKey } from "./commands/admin-rotate-encryption-key.js";
import { run as migrate } from "./commands/migrate.js";
import { run as start } from "./commands/start.js";
import { USAGE } from "./usage.js";

type Command = (args: string[], config: HookflowConfig) => Promise<number>;

const ADMIN: Record<string, Command> = {
  "create-user": adminCreateUser,
  "create-key": adminCreateKey,
  "rotate-encryption-key": adminRotateEncryptionKey,
};

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return String((manifest as { version?: unknown }).version ?? "unknown");
}

function usageError(message: string): number {
  process.stderr.write(`hookflow: ${message}\n\n${USAGE}`);
  return 2;
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
    default:
      return usageError(`unknown command: ${command}`);
  }
}
