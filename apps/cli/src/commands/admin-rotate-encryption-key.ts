import { parseArgs } from "node:util";
import type { HookflowConfig } from "@hookflow/config";
import { rotateEncryptionKey } from "@hookflow/services";
import { type AdminIo, parseOrUsage, processIo, runAdmin, UsageError } from "./admin-shared.js";

const ROTATE_KEY_USAGE = `Usage: hookflow admin rotate-encryption-key [--batch-size <n>]

Re-encrypts every stored secret (webhook ingress tokens, signing secrets, incoming
signature secrets, and the data of stored credentials) under HOOKFLOW_ENCRYPTION_KEY, and re-hashes ingress tokens with it. Values
sealed under a key listed in HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS are opened with that key; values
still in clear are sealed. Works in batches (default 200 rows), is idempotent, and is safe while
Hookflow runs: a row changed meanwhile keeps the writer's values and is checked again.
Prints a JSON summary; exits 1 when a value no configured key opens is left.
`;

/** `hookflow admin rotate-encryption-key`: exit 0 done, 1 values left unopened, 2 bad input. */
export async function run(
  args: string[],
  config: HookflowConfig,
  io: AdminIo = processIo,
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(ROTATE_KEY_USAGE);
    return 0;
  }
  const input = parseOrUsage(io, ROTATE_KEY_USAGE, () => {
    const { values } = parseArgs({
      args,
      options: { "batch-size": { type: "string" } },
      strict: true,
      allowPositionals: false,
    });
    const batchSize = Number(values["batch-size"] ?? 200);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
      throw new UsageError("--batch-size must be an integer from 1 to 10000");
    }
    return { batchSize };
  });
  if (!input) return 2;
  let failed = false;
  const code = await runAdmin(io, config, async (ctx) => {
    const summary = await rotateEncryptionKey(ctx, input);
    failed = summary.webhooksNotOpened.length > 0 || summary.credentialsNotOpened.length > 0;
    return summary;
  });
  if (code === 0 && failed) {
    io.stderr.write(
      "hookflow: some values are sealed under a key that is not configured; add it to " +
        "HOOKFLOW_ENCRYPTION_KEYS_PREVIOUS and run again\n",
    );
    return 1;
  }
  return code;
}
