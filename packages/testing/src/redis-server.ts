import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./child-app.js";
import { killOnTestExit } from "./child-process.js";

export interface RedisServer {
  port: number;
  url: string;
  running: () => boolean;
  /** Starts it (again) on the same port, empty: nothing is ever saved to disk. */
  start: () => Promise<void>;
  /** SIGKILL: a crash, nothing flushed. Resolves once the process is gone. */
  kill: () => Promise<void>;
  /** Kills it and removes its working directory. */
  close: () => Promise<void>;
  /** What the server printed (all runs). */
  output: () => string;
}

/**
 * A `redis-server` of a test's own, on a spare port, that keeps nothing on disk (`--save ""
 * --appendonly no`), so a restart comes back empty, like this machine's Redis after a restart.
 * Never the shared instance: tests kill and restart this one at will.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "hf-redis-"));
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let text = "";
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  const start = async () => {
    if (running()) throw new Error(`redis-server on ${port} is already running`);
    const proc = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--dir",
        dir,
        "--maxmemory-policy",
        "noeviction",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = proc;
    killOnTestExit(proc);
    const from = text.length;
    exited = new Promise((resolve) => proc.once("exit", () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill("SIGKILL");
        reject(new Error(`redis-server on ${port} did not start:\n${text}`));
      }, 10_000);
      const onData = (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("Ready to accept connections", from)) {
          clearTimeout(timer);
          proc.stdout?.off("data", onData);
          proc.stdout?.on("data", (more: Buffer) => {
            text += more.toString();
          });
          resolve();
        }
      };
      proc.stdout?.on("data", onData);
      proc.stderr?.on("data", (more: Buffer) => {
        text += more.toString();
      });
      proc.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      proc.once("exit", (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`redis-server on ${port} exited (${code ?? signal}):\n${text}`));
      });
    });
  };

  const kill = async () => {
    if (running()) child?.kill("SIGKILL");
    await exited;
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    running,
    start,
    kill,
    close: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    output: () => text,
  };
}
