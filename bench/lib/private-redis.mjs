// A redis-server of the bench's own (nothing saved to disk), so the CPU it spends is the run's
// alone: on a machine where other work uses the shared Redis, its CPU says nothing of the bench.
import { spawn } from "node:child_process";
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
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGKILL");
      }),
  };
}

/** Pids of the Postgres backends serving `database` right now. */
export async function backendPids(sql, database) {
  const rows = await sql`select pid from pg_stat_activity where datname = ${database}
    and pid <> pg_backend_pid()`;
  return rows.map((row) => row.pid);
}
