import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createTestDatabase,
  createTestRedisPrefix,
  killProcessTree,
  type TestDatabase,
  type TestRedisPrefix,
} from "@hookflow/testing";
import { NODE_FLAGS } from "../src/node-flags.js";

/** The built CLI: the root `pnpm test` builds before jest runs. */
export const CLI = fileURLToPath(new URL("../dist/main.js", import.meta.url));

export function assertBuilt(): void {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} is missing: run \`pnpm build\` (the root \`pnpm test\` does) first`);
  }
}

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child: PATH and friends, never the parent's Hookflow settings. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    if (process.env[name] !== undefined) base[name] = process.env[name];
  }
  return { ...base, ...env };
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: childEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export interface RunningCli {
  child: ChildProcess;
  port: number;
  /** Port of the Prometheus listener (METRICS_PORT), null when it is off. */
  metricsPort: number | null;
  output: () => string;
  /** Resolves with the exit code and signal once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a long-running CLI command with PORT=0 (and METRICS_PORT=0 unless `env` says otherwise)
 * and resolves with the ports it bound, read from its "hookflow listening" log line. Rejects if
 * the process exits before listening.
 */
export function startCli(args: string[], env: Record<string, string>): Promise<RunningCli> {
  // With the V8 flags every deployed Hookflow process starts with.
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, ...args], {
    env: childEnv({ METRICS_PORT: "0", ...env, PORT: "0", HOST: "127.0.0.1" }),
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    let pending = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        let parsed: { msg?: string; port?: number; metricsPort?: number | null } | undefined;
        try {
          parsed = JSON.parse(line);
        } catch {
          continue;
        }
        if (parsed?.msg === "hookflow listening" && typeof parsed.port === "number") {
          const metricsPort = parsed.metricsPort ?? null;
          resolve({ child, port: parsed.port, metricsPort, output: () => output, exited });
        }
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    void exited.then(({ code, signal }) =>
      reject(new Error(`cli exited (${code ?? signal}) before listening:\n${output}`)),
    );
  });
}

export interface HookflowUnderTest {
  cli: RunningCli;
  /** `http://127.0.0.1:<port>`: the public port. */
  base: string;
  database: TestDatabase;
  redis: TestRedisPrefix;
  /** Kills the process if it still runs, then drops its database and Redis keys. */
  stop: () => Promise<void>;
}

/**
 * `hookflow start` (every role; `startArgs` after `start`) on a database and Redis prefix of its
 * own, plus `env`.
 */
export async function startHookflow(
  env: Record<string, string>,
  startArgs: string[] = [],
): Promise<HookflowUnderTest> {
  assertBuilt();
  const database = await createTestDatabase();
  const redis = createTestRedisPrefix();
  const stopServices = async () => {
    await redis.destroy();
    await database.destroy();
  };
  let cli: RunningCli;
  try {
    cli = await startCli(["start", ...startArgs], {
      NODE_ENV: "test",
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      HOOKFLOW_REDIS_PREFIX: redis.prefix,
      HOOKFLOW_SECRET: "cli-test-secret-cli-test-secret-cli-test",
      LOG_LEVEL: "info",
      ...env,
    });
  } catch (error) {
    await stopServices();
    throw error;
  }
  return {
    cli,
    base: `http://127.0.0.1:${cli.port}`,
    database,
    redis,
    stop: async () => {
      if (cli.child.exitCode === null && cli.child.signalCode === null) {
        // The worker processes too: they would end by themselves, after the database is gone.
        killProcessTree(cli.child.pid);
        await cli.exited;
      }
      await stopServices();
    },
  };
}
