// A redis-server of the bench's own (nothing saved to disk), so the CPU it spends is the run's
// alone: on a machine where other work uses the shared Redis, its CPU says nothing of the bench.
import { execFileSync, spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

export async function startPrivateRedis(port) {
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`redis-server exited ${child.exitCode}`);
    const up = await new Promise((resolve) => {
      const probe = spawn("redis-cli", ["-p", String(port), "ping"], { stdio: "ignore" });
      probe.on("exit", (code) => resolve(code === 0));
    });
    if (up) break;
    await sleep(50);
  }
  return {
    url,
    port,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGKILL");
      }),
  };
}

/** Zeroes the private server's per-command counters (`CONFIG RESETSTAT`). */
export function resetCommandStats(port) {
  execFileSync("redis-cli", ["-p", String(port), "config", "resetstat"]);
}

/**
 * Redis commands per item since the last reset, by command, most frequent first. Commands run by
 * Lua scripts (BullMQ's) count under their own names beside `evalsha`.
 */
export function commandsPerItem(port, items) {
  const text = execFileSync("redis-cli", ["-p", String(port), "info", "commandstats"], {
    encoding: "utf8",
  });
  const out = {};
  for (const match of text.matchAll(/cmdstat_([^:]+):calls=(\d+)/g)) {
    if (match[1] === "config" || match[1] === "info") continue;
    out[match[1]] = Math.round((Number(match[2]) / items) * 100) / 100;
  }
  return Object.fromEntries(Object.entries(out).sort((a, b) => b[1] - a[1]));
}

/** Pids of the Postgres backends serving `database` right now. */
export async function backendPids(sql, database) {
  const rows = await sql`select pid from pg_stat_activity where datname = ${database}
    and pid <> pg_backend_pid()`;
  return rows.map((row) => row.pid);
}
