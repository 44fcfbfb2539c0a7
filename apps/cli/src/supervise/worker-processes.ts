import { type ChildProcess, fork } from "node:child_process";
import type { Logger, MetricsSnapshot } from "@hookflow/observability";
import { isToParent, SUPERVISED_ENV } from "./messages.js";

export interface WorkerProcessesOptions {
  count: number;
  /** The CLI's entry script; each process runs `<entry> start --role worker`. */
  entry: string;
  /** Node flags of the parent, given to every child as well. */
  execArgv: string[];
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

export interface WorkerProcesses {
  /** Process ids of the children running now. */
  pids: () => number[];
  /** Each running child's metrics registry as JSON (a child that does not answer is left out). */
  metrics: () => Promise<MetricsSnapshot[]>;
  /** Asks every child to shut down gracefully and waits for all of them to exit. */
  stop: () => Promise<void>;
}

/** A first start that takes longer than this fails `hookflow start`. */
const READY_TIMEOUT_MS = 60_000;
/** A child that does not answer a metrics request in this time is left out of that scrape. */
const METRICS_TIMEOUT_MS = 2_000;
/** Restarts after a crash wait 1 s, doubling to at most 30 s; a minute up resets the wait. */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const STABLE_AFTER_MS = 60_000;

/**
 * One worker process slot: keeps a child running the worker role, restarting it with backoff
 * when it dies (a deployment's supervisor would do the same), until `stop`.
 */
class WorkerSlot {
  private child: ChildProcess | null = null;
  private ready = false;
  private stopping = false;
  private restartDelayMs = RESTART_MIN_MS;
  private restartTimer: NodeJS.Timeout | null = null;
  private nextRequestId = 0;
  private readonly pending = new Map<number, (snapshot: MetricsSnapshot) => void>();

  constructor(
    private readonly index: number,
    private readonly options: WorkerProcessesOptions,
  ) {}

  /** Starts the child; resolves once it reports ready, rejects if it exits or stalls first. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = this.spawn();
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`worker process ${this.index} not ready after ${READY_TIMEOUT_MS} ms`));
      }, READY_TIMEOUT_MS);
      child.on("message", (message: unknown) => {
        if (isToParent(message) && message.type === "ready") {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(`worker process ${this.index} exited before it was ready (${code ?? signal})`),
        );
      });
    });
  }

  private spawn(): ChildProcess {
    const { entry, execArgv, env, logger } = this.options;
    const child = fork(entry, ["start", "--role", "worker"], {
      execArgv,
      // Health on a free loopback port, metrics served through the parent's listener.
      env: { ...env, [SUPERVISED_ENV]: "1", PORT: "0", HOST: "127.0.0.1", METRICS_PORT: "off" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const startedAt = Date.now();
    this.child = child;
    this.ready = false;
    logger.info({ workerProcess: this.index, pid: child.pid }, "worker process started");
    child.on("message", (message: unknown) => this.onMessage(message));
    child.once("exit", (code, signal) => this.onExit(child, startedAt, code, signal));
    return child;
  }

  private onMessage(message: unknown): void {
    if (!isToParent(message)) return;
    if (message.type === "ready") {
      this.ready = true;
      return;
    }
    this.pending.get(message.requestId)?.(message.snapshot);
  }

  private onExit(
    child: ChildProcess,
    startedAt: number,
    code: number | null,
    signal: string | null,
  ) {
    if (this.child === child) this.child = null;
    this.ready = false;
    const { logger } = this.options;
    if (this.stopping) {
      logger.info(
        { workerProcess: this.index, pid: child.pid, code, signal },
        "worker process stopped",
      );
      return;
    }
    if (Date.now() - startedAt > STABLE_AFTER_MS) this.restartDelayMs = RESTART_MIN_MS;
    const delayMs = this.restartDelayMs;
    this.restartDelayMs = Math.min(RESTART_MAX_MS, this.restartDelayMs * 2);
    logger.error(
      { workerProcess: this.index, pid: child.pid, code, signal, restartInMs: delayMs },
      "worker process exited; restarting it",
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (!this.stopping) this.spawn();
    }, delayMs);
  }

  pid(): number | null {
    return this.child?.pid ?? null;
  }

  metrics(): Promise<MetricsSnapshot | null> {
    const child = this.child;
    if (!child || !this.ready || !child.connected) return Promise.resolve(null);
    const requestId = this.nextRequestId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        resolve(null);
      }, METRICS_TIMEOUT_MS);
      this.pending.set(requestId, (snapshot) => {
        clearTimeout(timer);
        this.pending.delete(requestId);
        resolve(snapshot);
      });
      child.send({ type: "metrics", requestId });
    });
  }

  /** Closing the channel is the child's signal to shut down gracefully. */
  stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once("exit", () => resolve());
      if (child.connected) child.disconnect();
      else child.kill("SIGTERM");
    });
  }
}

/**
 * Runs the worker role in `count` child processes of a `hookflow start`, so the worker's CPU does
 * not share the http process's event loop: the ingress keeps answering while deliveries, graphs
 * and sandboxes run on another core. Resolves once every child is ready.
 */
export async function startWorkerProcesses(
  options: WorkerProcessesOptions,
): Promise<WorkerProcesses> {
  const slots = Array.from({ length: options.count }, (_, i) => new WorkerSlot(i + 1, options));
  const stop = async () => {
    await Promise.all(slots.map((slot) => slot.stop()));
  };
  try {
    await Promise.all(slots.map((slot) => slot.start()));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pids: () => slots.flatMap((slot) => slot.pid() ?? []),
    metrics: async () => {
      const snapshots = await Promise.all(slots.map((slot) => slot.metrics()));
      return snapshots.filter((snapshot) => snapshot !== null);
    },
    stop,
  };
}
