import type { HookflowConfig } from "@hookflow/config";
import { migrateDatabase } from "@hookflow/db";
import { createKeyRing } from "@hookflow/domain";

/**
 * `hookflow migrate`: creates the database when missing, applies pending migrations and seals
 * webhook credentials still stored in clear (with the configured encryption key).
 */
export async function run(args: string[], config: HookflowConfig): Promise<number> {
  if (args.length > 0) {
    process.stderr.write(`hookflow migrate takes no arguments (got: ${args.join(" ")})\n`);
    return 2;
  }
  const target = new URL(config.databaseUrl);
  target.password = target.password ? "***" : "";
  await migrateDatabase({
    url: config.databaseUrl,
    keyRing: createKeyRing(config.encryptionKeys),
    log: (message) => process.stdout.write(`${message}\n`),
  });
  process.stdout.write(`database ${target.toString()} is up to date\n`);
  return 0;
}
