import { createHookflowClient, type HookflowClient } from "@hookflow/sdk";
import type { ClientEnv } from "../env.js";
import { ClientUsageError, describeFailure, type Io } from "./output.js";
import { type ClientSettings, resolveClientSettings } from "./settings.js";

export interface ClientContext {
  io: Io;
  env: ClientEnv;
  /** Ends long-running commands (listen, tail): SIGINT and SIGTERM abort it. */
  signal: AbortSignal;
}

export type ClientWork = (client: HookflowClient, settings: ClientSettings) => Promise<number>;

/**
 * Runs a client command: resolves the server and credential, builds the SDK client and turns
 * failures into one line on stderr: exit 2 for bad input (with `usage`), 1 for the rest.
 */
export async function runClient(
  ctx: ClientContext,
  usage: string,
  work: ClientWork,
  options: { needsToken?: boolean } = {},
): Promise<number> {
  let settings: ClientSettings | undefined;
  try {
    settings = await resolveClientSettings(ctx.env);
    if (options.needsToken !== false && !settings.token) {
      ctx.io.stderr.write(
        "hookflow: no credential: set HOOKFLOW_API_KEY (and HOOKFLOW_URL), or run `hookflow login`\n",
      );
      return 1;
    }
    const client = createHookflowClient({ baseUrl: settings.url, token: settings.token });
    return await work(client, settings);
  } catch (error) {
    if (error instanceof ClientUsageError) {
      ctx.io.stderr.write(`hookflow: ${error.message}\n\n${usage}`);
      return 2;
    }
    const fallback = { url: ctx.env.url ?? "", token: undefined, tokenSource: "none" as const };
    ctx.io.stderr.write(
      `hookflow: ${describeFailure(error, settings ?? { ...fallback, configFile: "" })}\n`,
    );
    return 1;
  }
}

/** `node:util` parseArgs errors are usage errors. */
export function parseOptions<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ClientUsageError(error instanceof Error ? error.message : String(error));
  }
}

export function positiveInt(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new ClientUsageError(`${name} must be a positive whole number`);
  }
  return Number(value);
}
