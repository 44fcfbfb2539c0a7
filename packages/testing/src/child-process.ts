import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One JSON log line of a child (pino), with its raw text. */
export type ChildLogLine = Record<string, unknown> & { msg?: string };

/** A spawned child, with everything it wrote so far and the waits for its next log line. */
export interface TrackedChild {
  /** Label in error messages. */
  name: string;
  process: ChildProcess;
  exited: Promise<ChildExit>;
  /** Everything the child wrote to stdout and stderr so far. */
  text: string;
  /** The start of a stdout line whose newline has not arrived yet. */
  pending: string;
  lines: ChildLogLine[];
  listeners: Set<(line: ChildLogLine) => void>;
}

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

/** Kills `child` (and what it started) if the test process exits first; until it has exited. */
export function killOnTestExit(child: ChildProcess): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const running of live) killProcessTree(running.pid);
    });
  }
  live.add(child);
  child.once("exit", () => live.delete(child));
}

/** Runs `args` with this Node binary and keeps its output; killed if the test process exits. */
export function spawnTracked(name: string, args: string[], env: NodeJS.ProcessEnv): TrackedChild {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  killOnTestExit(child);
  const tracked: TrackedChild = {
    name,
    process: child,
    exited: exitOf(child),
    text: "",
    pending: "",
    lines: [],
    listeners: new Set(),
  };
  child.stdout.on("data", (chunk: Buffer) => readStdout(tracked, chunk));
  child.stderr.on("data", (chunk: Buffer) => {
    tracked.text += chunk.toString();
  });
  return tracked;
}

function exitOf(child: ChildProcess): Promise<ChildExit> {
  return new Promise<ChildExit>((resolve) => {
    // "close", not "exit": by then everything the child wrote has been read.
    child.once("close", (code, signal) => {
      resolve({ code, signal });
    });
  });
}

/** Keeps the chunk and hands every complete JSON line to the waiting listeners. */
function readStdout(tracked: TrackedChild, chunk: Buffer): void {
  const part = chunk.toString();
  tracked.text += part;
  tracked.pending += part;
  const complete = tracked.pending.split("\n");
  tracked.pending = complete.pop() ?? "";
  for (const raw of complete) {
    let line: ChildLogLine;
    try {
      line = JSON.parse(raw) as ChildLogLine;
    } catch {
      continue;
    }
    tracked.lines.push(line);
    for (const listener of tracked.listeners) listener(line);
  }
}

export function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Resolves with the first log line (old or new) matching `match`. */
export function waitForLogLine(
  tracked: TrackedChild,
  match: (line: ChildLogLine) => boolean,
  timeoutMs = 15_000,
): Promise<ChildLogLine> {
  const found = tracked.lines.find(match);
  if (found) return Promise.resolve(found);
  const { name, process: child } = tracked;
  return new Promise((resolve, reject) => {
    const listener = (line: ChildLogLine) => {
      if (!match(line)) return;
      cleanup();
      resolve(line);
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${name}: no matching log line within ${timeoutMs} ms:\n${tracked.text}`));
    }, timeoutMs);
    const onExit = () => {
      cleanup();
      reject(new Error(`${name} exited before the expected log line:\n${tracked.text}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      tracked.listeners.delete(listener);
      child.off("close", onExit);
    };
    tracked.listeners.add(listener);
    child.once("close", onExit);
  });
}

export function signalChild(tracked: TrackedChild, signal: NodeJS.Signals): void {
  if (isRunning(tracked.process)) tracked.process.kill(signal);
}

export async function killChild(tracked: TrackedChild): Promise<ChildExit> {
  if (isRunning(tracked.process)) killProcessTree(tracked.process.pid);
  return tracked.exited;
}

export async function terminateChild(
  tracked: TrackedChild,
  timeoutMs = 20_000,
): Promise<ChildExit> {
  const child = tracked.process;
  if (!isRunning(child)) return tracked.exited;
  child.kill("SIGCONT");
  child.kill("SIGTERM");
  const timer = setTimeout(() => killProcessTree(child.pid), timeoutMs);
  const exit = await tracked.exited;
  clearTimeout(timer);
  return exit;
}
