import { existsSync } from "node:fs";
import { createServer } from "node:net";
import {
  type ChildExit,
  type ChildLogLine,
  isRunning,
  killChild,
  signalChild,
  spawnTracked,
  type TrackedChild,
  terminateChild,
  waitForLogLine,
} from "./child-process.js";

export { type ChildExit, type ChildLogLine, killProcessTree } from "./child-process.js";

/** A free TCP port on loopback, found by binding port 0 (the kernel picks one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no port assigned"))));
    });
  });
}

/** Polls `check` until it returns a value other than undefined; rejects with `describe()`. */
export async function waitUntil<T>(
  check: () => Promise<T | undefined> | T | undefined,
  options: { timeoutMs?: number; intervalMs?: number; describe?: () => string } = {},
): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `condition not met within ${timeoutMs} ms${options.describe ? `: ${options.describe()}` : ""}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * `waitUntil` for a yes-or-no condition: resolves once `check` holds, and names `what` it waited
 * for when it gives up.
 */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  what?: string,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  await waitUntil(async () => ((await check()) ? true : undefined), {
    ...options,
    ...(what === undefined ? {} : { describe: () => what }),
  });
}

export interface ChildApp {
  name: string;
  pid: number;
  port: number;
  url: string;
  /** Everything the child wrote to stdout and stderr so far. */
  output: () => string;
  /** The JSON log lines written so far. */
  logs: () => ChildLogLine[];
  /** Resolves with the first log line (old or new) matching `match`. */
  waitForLog: (match: (line: ChildLogLine) => boolean, timeoutMs?: number) => Promise<ChildLogLine>;
  running: () => boolean;
  exited: Promise<ChildExit>;
  /** Sends a signal (SIGSTOP and SIGCONT included) if the child is still running. */
  signal: (signal: NodeJS.Signals) => void;
  /** SIGKILL, then waits for the exit. */
  kill: () => Promise<ChildExit>;
  /** SIGTERM, waits for the exit; SIGKILL after `timeoutMs`. */
  terminate: (timeoutMs?: number) => Promise<ChildExit>;
}

export interface StartChildAppOptions {
  /** Script run with this Node binary, e.g. the built CLI `apps/cli/dist/main.js`. */
  entry: string;
  args: string[];
  /** Added to a clean environment (PATH, HOME, TMPDIR, LANG) and the defaults below. */
  env: Record<string, string>;
  /** Label in error messages. */
  name?: string;
  readyTimeoutMs?: number;
  /** Health path polled until 200 after the child reports its port. */
  healthPath?: string;
}

/**
 * Starts a Hookflow app (the built CLI) as a child process on a port the kernel picks (`PORT=0`),
 * reads the port from its `hookflow listening` log line, waits until its health check answers
 * 200 and resolves (so `LOG_LEVEL` must stay `info` or lower, the default here). Logs are kept
 * for assertions and error messages. The child is killed if the test process exits first;
 * callers still stop it in `afterAll`.
 */
export async function startChildApp(options: StartChildAppOptions): Promise<ChildApp> {
  assertEntryBuilt(options.entry);
  const name = options.name ?? options.args.join(" ");
  const env = childEnvOf(options.env);
  const tracked = spawnTracked(name, [options.entry, ...options.args], env);
  try {
    const port = await waitUntilServing(tracked, options);
    return childAppOf(tracked, port);
  } catch (error) {
    await killChild(tracked);
    throw error;
  }
}

function assertEntryBuilt(entry: string): void {
  if (!existsSync(entry)) {
    throw new Error(`${entry} is missing: run \`pnpm build\` (the root \`pnpm test\` does)`);
  }
}

const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG"];

/** A clean environment with the test defaults, the caller's `env` on top, and `PORT=0` last. */
function childEnvOf(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of INHERITED) if (process.env[key] !== undefined) env[key] = process.env[key];
  Object.assign(env, {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    HOOKFLOW_SECRET: "child-app-secret-child-app-secret-0123",
    // Children run side by side: each takes a free port for its metrics listener.
    METRICS_PORT: "0",
    ...extra,
    PORT: "0",
  });
  return env;
}

function urlOf(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** Waits for the `hookflow listening` log line, then for the health check; returns the port. */
async function waitUntilServing(
  tracked: TrackedChild,
  options: StartChildAppOptions,
): Promise<number> {
  const listening = await waitForLogLine(
    tracked,
    (line) => line.msg === "hookflow listening" && typeof line.port === "number",
    options.readyTimeoutMs ?? 20_000,
  );
  const port = listening.port as number;
  const health = `${urlOf(port)}${options.healthPath ?? "/api/health"}`;
  await waitUntil(
    async () => {
      const res = await fetch(health).catch(() => null);
      await res?.body?.cancel();
      return res?.status === 200 ? true : undefined;
    },
    {
      timeoutMs: options.readyTimeoutMs ?? 20_000,
      describe: () => `${tracked.name} not healthy:\n${tracked.text}`,
    },
  );
  return port;
}

function childAppOf(tracked: TrackedChild, port: number): ChildApp {
  return {
    name: tracked.name,
    pid: tracked.process.pid ?? 0,
    port,
    url: urlOf(port),
    output: () => tracked.text,
    logs: () => tracked.lines.slice(),
    waitForLog: (match, timeoutMs) => waitForLogLine(tracked, match, timeoutMs),
    running: () => isRunning(tracked.process),
    exited: tracked.exited,
    signal: (signal) => signalChild(tracked, signal),
    kill: () => killChild(tracked),
    terminate: (timeoutMs) => terminateChild(tracked, timeoutMs),
  };
}
