import { parseArgs } from "node:util";
import type { HookflowConfig } from "@hookflow/config";
import { createUserApiKey } from "@hookflow/services";
import { type AdminIo, parseOrUsage, processIo, runAdmin, UsageError } from "./admin-shared.js";

const CREATE_KEY_USAGE = `Usage: hookflow admin create-key --email <email> --scopes <scope,scope...>
                                [--org <organization id>] [--name <name>]
                                [--origins <origin,origin...>] [--expires-at <ISO date>]

Creates an API key for the user with that email. Prints the key as JSON; the "key" value is
shown only this once. Scopes: events:read events:write webhooks:read webhooks:write
deliveries:read canvas:read canvas:write alerts:read alerts:write telemetry:read.
`;

function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** `hookflow admin create-key`: exit 0 created, 1 failed (unknown user, not a member), 2 invalid input. */
export async function run(
  args: string[],
  config: HookflowConfig,
  io: AdminIo = processIo,
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(CREATE_KEY_USAGE);
    return 0;
  }
  const input = parseOrUsage(io, CREATE_KEY_USAGE, () => {
    const { values } = parseArgs({
      args,
      options: {
        email: { type: "string" },
        scopes: { type: "string" },
        org: { type: "string" },
        name: { type: "string" },
        origins: { type: "string" },
        "expires-at": { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    });
    if (!values.email) throw new UsageError("--email is required");
    const scopes = list(values.scopes);
    if (scopes.length === 0) throw new UsageError("--scopes needs at least one scope");
    return {
      email: values.email.trim(),
      name: values.name ?? "cli",
      scopes,
      allowedOrigins: list(values.origins),
      organizationId: values.org ?? null,
      expiresAt: values["expires-at"] ?? null,
    };
  });
  if (!input) return 2;
  return runAdmin(io, config, async (ctx) => {
    const { apiKey, key } = await createUserApiKey(ctx, input);
    return { ...apiKey, key };
  });
}
