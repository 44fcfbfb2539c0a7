import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { z } from "zod";
import type { ClientEnv } from "../env.js";

/** Used when neither `HOOKFLOW_URL` nor a login names a server. */
const DEFAULT_URL = "http://localhost:3000";

/** What `hookflow login` stores (the file is readable by its owner only). */
export const StoredLogin = z.object({
  url: z.string().url(),
  token: z.string().min(1),
  email: z.string().optional(),
});
export type StoredLogin = z.infer<typeof StoredLogin>;

export interface ClientSettings {
  url: string;
  token: string | undefined;
  /** Where the token came from, for error messages. */
  tokenSource: "HOOKFLOW_API_KEY" | "login" | "none";
  configFile: string;
}

function configFileOf(env: ClientEnv): string {
  if (env.configFile) return env.configFile;
  const base = env.xdgConfigHome ?? join(env.home ?? ".", ".config");
  return join(base, "hookflow", "config.json");
}

export async function readStoredLogin(file: string): Promise<StoredLogin | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  const parsed = StoredLogin.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new Error(`${file} is not a hookflow login file; remove it or run \`hookflow login\``);
  return parsed.data;
}

/** Writes the login file with mode 0600 (its folder 0700), whatever the umask. */
export async function writeStoredLogin(file: string, login: StoredLogin): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function removeStoredLogin(file: string): Promise<void> {
  await rm(file, { force: true });
}

/** `HOOKFLOW_URL` and `HOOKFLOW_API_KEY` win over the stored login. */
export async function resolveClientSettings(env: ClientEnv): Promise<ClientSettings> {
  const configFile = configFileOf(env);
  const stored = await readStoredLogin(configFile);
  const url = (env.url ?? stored?.url ?? DEFAULT_URL).replace(/\/+$/, "");
  if (env.apiKey) return { url, token: env.apiKey, tokenSource: "HOOKFLOW_API_KEY", configFile };
  if (stored && (!env.url || env.url.replace(/\/+$/, "") === stored.url.replace(/\/+$/, ""))) {
    return { url, token: stored.token, tokenSource: "login", configFile };
  }
  return { url, token: undefined, tokenSource: "none", configFile };
}
