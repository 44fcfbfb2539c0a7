// CPU time of the processes a benchmark phase involves, read from /proc (Linux), so a phase can
// report where its CPU went: the worker, its children (JavaScript sandboxes), Redis, Postgres,
// the receiver. Processes that start or exit within the phase are counted from when first seen.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100;

function readStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // comm may hold spaces and parentheses: fields start after the last ')'.
    const close = text.lastIndexOf(")");
    const comm = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    return {
      comm,
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined;
  }
}

/** Every live process: pid -> {comm, ppid, ticks}. */
function allProcesses() {
  const table = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) table.set(Number(name), stat);
  }
  return table;
}

function descendantsOf(table, root) {
  const out = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, stat] of table) {
      if (!out.has(pid) && out.has(stat.ppid)) {
        out.add(pid);
        grew = true;
      }
    }
  }
  return out;
}

/**
 * A process's threads' CPU by thread name, the main thread left out: V8's garbage collector and
 * compiler helpers ("V8Worker"), libuv's pool ("libuv-worker"), Node worker threads.
 */
function ticksByThreadName(pid) {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return out;
  }
  for (const tid of tids) {
    if (tid === pid) continue;
    const stat = readStat(`${pid}/task/${tid}`);
    if (stat) out.set(stat.comm, (out.get(stat.comm) ?? 0) + stat.ticks);
  }
  return out;
}

/**
 * Groups: {name: {pid, threads?} | {comm: RegExp}}; a pid group includes the process's
 * descendants, apart from those named by `excludeChildren` (they are reported as
 * `<name> children`); `threads: true` also reports the other threads' CPU by thread name
 * (`<name> thread <comm>`).
 */
export function snapshotCpu(groups) {
  const table = allProcesses();
  const result = {};
  for (const [name, spec] of Object.entries(groups)) {
    let ticks = 0;
    let childTicks = 0;
    if (spec.pid !== undefined) {
      for (const pid of descendantsOf(table, spec.pid)) {
        const stat = table.get(pid);
        if (!stat) continue;
        if (pid === spec.pid) ticks += stat.ticks;
        else childTicks += stat.ticks;
      }
      result[name] = ticks;
      result[`${name} children`] = childTicks;
      // The main thread's own share (its task id is the pid): the rest of the process is worker
      // threads (jq), the garbage collector's helpers and libuv's pool.
      const main = readStat(`${spec.pid}/task/${spec.pid}`);
      if (main) result[`${name} main thread`] = main.ticks;
      if (spec.threads) {
        for (const [comm, threadTicks] of ticksByThreadName(spec.pid)) {
          result[`${name} thread ${comm}`] = threadTicks;
        }
      }
    } else {
      for (const stat of table.values()) if (spec.comm.test(stat.comm)) ticks += stat.ticks;
      result[name] = ticks;
    }
  }
  return result;
}

/** CPU microseconds per item between two snapshots, by group. */
export function cpuPerItem(before, after, items) {
  const out = {};
  for (const [name, ticks] of Object.entries(after)) {
    const used = ticks - (before[name] ?? 0);
    out[name] = Math.round(((used / TICKS_PER_SECOND) * 1e6) / items);
  }
  return out;
}
