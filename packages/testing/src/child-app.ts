import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

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

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One JSON log line of a child (pino), with its raw text. */
export type ChildLogLine = Record<string, unknown> & { msg?: string };

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

const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG"];

/** The pids of a process's descendants, children first (Linux /proc; none elsewhere). */
function descendantsOf(pid: number): number[] {
  let children: number[] = [];
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    children = text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/**
 * SIGKILLs a process and every process it started: a `hookflow start` has worker processes of
 * its own, which would otherwise hold its output pipes open while they shut down by themselves.
 */
export function killProcessTree(pid: number | undefined): void {
  if (pid === undefined) return;
  for (const target of [pid, ...descendantsOf(pid)]) {
    try {
      process.kill(target, "SIGCONT");
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Children still running when the test process exits are killed with it. */
const live = new Set<ChildProcess>();
let exitHooked = false;
function killLiveOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const child of live) killProcessTree(child.pid);
  });
}

/**
 * Starts a Hookflow app (the built CLI) as a child process on a port the kernel picks (`PORT=0`),
 * reads the port from its `hookflow listening` log line, waits until its health check answers
 * 200 and resolves (so `LOG_LEVEL` must stay `info` or lower, the default here). Logs are kept
 * for assertions and error messages. The child is killed if the test process exits first;
 * callers still stop it in `afterAll`.
 */
export async function startChildApp(options: StartChildAppOptions): Promise<ChildApp> {
  if (!existsSync(options.entry)) {
    throw new Error(
      `${options.entry} is missing: run \`pnpm build\` (the root \`pnpm test\` does)`,
    );
  }
  const name = options.name ?? options.args.join(" ");
  const env: NodeJS.ProcessEnv = {};
  for (const key of INHERITED) if (process.env[key] !== undefined) env[key] = process.env[key];
  Object.assign(env, {
    NODE_ENV: "test",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    HOOKFLOW_SECRET: "child-app-secret-child-app-secret-0123",
    // Children run side by side: each takes a free port for its metrics listener.
    METRICS_PORT: "0",
    ...options.env,
    PORT: "0",
  });
  const child = spawn(process.execPath, [options.entry, ...options.args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  killLiveOnExit();
  live.add(child);
  let text = "";
  let pending = "";
  const lines: ChildLogLine[] = [];
  const listeners = new Set<(line: ChildLogLine) => void>();
  const exited = new Promise<ChildExit>((resolve) => {
    // "close", not "exit": by then everything the child wrote has been read.
    child.once("close", (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  child.stdout.on("data", (chunk: Buffer) => {
    const part = chunk.toString();
    text += part;
    pending += part;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    for (const raw of complete) {
      let line: ChildLogLine;
      try {
        line = JSON.parse(raw) as ChildLogLine;
      } catch {
        continue;
      }
      lines.push(line);
      for (const listener of listeners) listener(line);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    text += chunk.toString();
  });

  const running = () => child.exitCode === null && child.signalCode === null;
  const waitForLog: ChildApp["waitForLog"] = (match, timeoutMs = 15_000) => {
    const found = lines.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const listener = (line: ChildLogLine) => {
        if (!match(line)) return;
        cleanup();
        resolve(line);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${name}: no matching log line within ${timeoutMs} ms:\n${text}`));
      }, timeoutMs);
      const onExit = () => {
        cleanup();
        reject(new Error(`${name} exited before the expected log line:\n${text}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(listener);
        child.off("close", onExit);
      };
      listeners.add(listener);
      child.once("close", onExit);
    });
  };
  const signal = (sig: NodeJS.Signals) => {
    if (running()) child.kill(sig);
  };
  const kill = async () => {
    if (running()) killProcessTree(child.pid);
    return exited;
  };
  const terminate = async (timeoutMs = 20_000) => {
    if (!running()) return exited;
    child.kill("SIGCONT");
    child.kill("SIGTERM");
    const timer = setTimeout(() => killProcessTree(child.pid), timeoutMs);
    const exit = await exited;
    clearTimeout(timer);
    return exit;
  };

  try {
    const listening = await waitForLog(
      (line) => line.msg === "hookflow listening" && typeof line.port === "number",
      options.readyTimeoutMs ?? 20_000,
    );
    const port = listening.port as number;
    const url = `http://127.0.0.1:${port}`;
    await waitUntil(
      async () => {
        const res = await fetch(`${url}${options.healthPath ?? "/api/health"}`).catch(() => null);
        await res?.body?.cancel();
        return res?.status === 200 ? true : undefined;
      },
      {
        timeoutMs: options.readyTimeoutMs ?? 20_000,
        describe: () => `${name} not healthy:\n${text}`,
      },
    );
    return {
      name,
      pid: child.pid ?? 0,
      port,
      url,
      output: () => text,
      logs: () => lines.slice(),
      waitForLog,
      running,
      exited,
      signal,
      kill,
      terminate,
    };
  } catch (error) {
    await kill();
    throw error;
  }
}
