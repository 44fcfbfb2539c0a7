import type { HookflowConfig } from "@hookflow/config";
import { createDb, migrateDatabase } from "@hookflow/db";
import { AppError, createKeyRing } from "@hookflow/domain";
import type { ServiceContext } from "@hookflow/services";

/** Where a command writes; tests pass collectors, the CLI the process streams. */
export interface AdminIo {
  stdout: { write: (text: string) => unknown };
  stderr: { write: (text: string) => unknown };
}

export const processIo: AdminIo = { stdout: process.stdout, stderr: process.stderr };

/** What the admin commands' verbs work with: the database, the key ring and a clock. */
export type AdminContext = Pick<ServiceContext, "db" | "keyRing" | "now">;

/** Thrown for bad command-line input: exit code 2, with the command's usage. */
export class UsageError extends Error {}

/**
 * Runs `work` against the configured database (migrated first, so a fresh install works) and
 * maps failures to exit codes: 2 for input the domain rejects, 1 for anything else.
 */
export async function runAdmin(
  io: AdminIo,
  config: HookflowConfig,
  work: (ctx: AdminContext) => Promise<unknown>,
): Promise<number> {
  let handle: ReturnType<typeof createDb> | undefined;
  try {
    const keyRing = createKeyRing(config.encryptionKeys);
    await migrateDatabase({ url: config.databaseUrl, keyRing });
    handle = createDb({ url: config.databaseUrl, max: 1, applicationName: "hookflow-cli" });
    const result = await work({ db: handle, keyRing, now: () => new Date() });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AppError) {
      io.stderr.write(`hookflow: ${error.message}\n`);
      return error.code === "validation" ? 2 : 1;
    }
    io.stderr.write(`hookflow: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await handle?.close();
  }
}

/**
 * Parses the command line before anything touches the database: `node:util` parseArgs errors
 * (unknown flag, missing value) and `UsageError`s print the usage; the result is `null` then.
 */
export function parseOrUsage<T>(io: AdminIo, usage: string, parse: () => T): T | null {
  try {
    return parse();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`hookflow: ${message}\n\n${usage}`);
    return null;
  }
}
