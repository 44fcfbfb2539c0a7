import { parseArgs } from "node:util";
import { ClientUsageError, printJson } from "./output.js";
import { type ClientContext, parseOptions, runClient } from "./run-client.js";
import { readStoredLogin, removeStoredLogin, writeStoredLogin } from "./settings.js";

const LOGIN_USAGE = `Usage: hookflow login --email <email> [--url <url>] [--password <password>]
       hookflow logout

login opens a session (the password is read from stdin when --password is absent) and stores
its token in $HOOKFLOW_CONFIG (default ~/.config/hookflow/config.json, mode 0600). The URL is
--url, else HOOKFLOW_URL, else http://localhost:3000. logout ends the session and deletes the
file. HOOKFLOW_API_KEY, when set, is used instead of the stored session.
`;

async function readStdin(ctx: ClientContext): Promise<string> {
  if (process.stdin.isTTY) ctx.io.stderr.write("Password: ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export function login(ctx: ClientContext, args: string[]): Promise<number> {
  const { values } = parseOptions(() =>
    parseArgs({
      args,
      options: {
        email: { type: "string" },
        url: { type: "string" },
        password: { type: "string" },
        json: { type: "boolean" },
      },
      strict: true,
    }),
  );
  const env = values.url ? { ...ctx.env, url: values.url, apiKey: undefined } : ctx.env;
  return runClient(
    { ...ctx, env: { ...env, apiKey: undefined } },
    LOGIN_USAGE,
    async (client, settings) => {
      if (!values.email) throw new ClientUsageError("--email is required");
      const password = values.password ?? (await readStdin(ctx));
      const session = await client.auth.logIn({ email: values.email, password });
      await writeStoredLogin(settings.configFile, {
        url: settings.url,
        token: session.token,
        email: values.email,
      });
      if (values.json)
        printJson(ctx.io, { url: settings.url, email: values.email, expiresAt: session.expiresAt });
      else
        ctx.io.stdout.write(
          `Logged in to ${settings.url} as ${values.email} (session stored in ${settings.configFile})\n`,
        );
      return 0;
    },
    { needsToken: false },
  );
}

export function logout(ctx: ClientContext): Promise<number> {
  return runClient(
    { ...ctx, env: { ...ctx.env, apiKey: undefined, url: undefined } },
    LOGIN_USAGE,
    async (client, settings) => {
      const stored = await readStoredLogin(settings.configFile);
      if (!stored) {
        ctx.io.stdout.write("Not logged in\n");
        return 0;
      }
      // The session may have expired already; the file goes either way.
      await client.auth.logOut().catch(() => undefined);
      await removeStoredLogin(settings.configFile);
      ctx.io.stdout.write(`Logged out of ${stored.url}\n`);
      return 0;
    },
    { needsToken: false },
  );
}
