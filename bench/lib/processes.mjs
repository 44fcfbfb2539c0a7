import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Starts a child process and waits until `healthUrl` answers 200. */
export async function startProcess({ name, args, env, healthUrl, cwd }) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited early (${child.exitCode}): ${stderr}`);
    try {
      const res = await fetch(healthUrl);
      if (res.ok) return { name, child, pid: child.pid, stderr: () => stderr };
    } catch {}
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`${name} did not become healthy: ${stderr}`);
}

/** Peak resident set size of a live process, in MB (Linux VmHWM). */
export function peakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Pids of a live process's direct children (Linux). */
export function childPids(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
    return text ? text.split(/\s+/).map(Number) : [];
  } catch {
    return [];
  }
}

export async function stopProcess(proc) {
  if (!proc || proc.child.exitCode !== null) return;
  const exited = new Promise((r) => proc.child.once("exit", r));
  proc.child.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (proc.child.exitCode === null) proc.child.kill("SIGKILL");
}
