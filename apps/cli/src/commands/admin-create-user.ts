import { parseArgs } from "node:util";
import type { HookflowConfig } from "@hookflow/config";
import { createUserAccount } from "@hookflow/services";
import { type AdminIo, parseOrUsage, processIo, runAdmin, UsageError } from "./admin-shared.js";

const CREATE_USER_USAGE = `Usage: hookflow admin create-user --email <email> --password <password> [--name <name>]

Creates a user who can then log in (POST /api/auth/login). Prints the user as JSON.
The email must not be in use yet; the password needs at least 8 characters.
`;

/** `hookflow admin create-user`: exit 0 created, 1 failed (email taken), 2 invalid input. */
export async function run(
  args: string[],
  config: HookflowConfig,
  io: AdminIo = processIo,
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(CREATE_USER_USAGE);
    return 0;
  }
  const input = parseOrUsage(io, CREATE_USER_USAGE, () => {
    const { values } = parseArgs({
      args,
      options: {
        email: { type: "string" },
        password: { type: "string" },
        name: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (!values.email) throw new UsageError("--email is required");
    if (values.password === undefined) throw new UsageError("--password is required");
    return { email: values.email, password: values.password, name: values.name };
  });
  if (!input) return 2;
  return runAdmin(io, config, (ctx) => createUserAccount(ctx, input));
}
