/** The roles a process can run alone; `start` without a role runs all of them. */
export const ROLES = ["api", "ingress", "worker", "stream"] as const;
export type Role = (typeof ROLES)[number];

/** At most this many worker processes beside the http process of a `start` of every role. */
const MAX_WORKER_PROCESSES = 16;

/**
 * `workerProcesses`: for a start of every role, how many processes run the worker role beside
 * the process serving http (0: the worker runs inside it); "auto" picks from the cores at hand.
 */
export type StartArgs =
  | { role: Role | "all"; workerProcesses: number | "auto" }
  | { error: string };

function parseRole(value: string | undefined): Role | "all" | { error: string } {
  if (value === "all" || (ROLES as readonly string[]).includes(value ?? "")) {
    return value as Role | "all";
  }
  return { error: `--role must be one of ${ROLES.join(", ")} (got ${value ?? "nothing"})` };
}

function parseWorkerProcesses(value: string | undefined): number | "auto" | { error: string } {
  if (value === "auto") return value;
  const count = /^\d+$/.test(value ?? "") ? Number(value) : Number.NaN;
  if (Number.isInteger(count) && count >= 0 && count <= MAX_WORKER_PROCESSES) return count;
  return {
    error: `--worker-processes must be auto or a whole number from 0 to ${MAX_WORKER_PROCESSES} (got ${value || "nothing"})`,
  };
}

/** The value of `--name v` or `--name=v` at `args[i]`, and the index of the last token read. */
function optionValue(args: string[], i: number, name: string): { value?: string; next: number } {
  const arg = args[i] ?? "";
  if (arg === name) return { value: args[i + 1], next: i + 1 };
  if (arg.startsWith(`${name}=`)) return { value: arg.slice(name.length + 1), next: i };
  return { next: -1 };
}

/** `start [--role <role>|all] [--worker-processes <n>|auto]` (also `--name=value`). */
export function parseStartArgs(args: string[]): StartArgs {
  let role: Role | "all" = "all";
  let workerProcesses: number | "auto" | null = null;
  for (let i = 0; i < args.length; i++) {
    const asRole = optionValue(args, i, "--role");
    const asWorkers = optionValue(args, i, "--worker-processes");
    if (asRole.next >= 0) {
      const parsed = parseRole(asRole.value);
      if (typeof parsed === "object") return parsed;
      role = parsed;
      i = asRole.next;
    } else if (asWorkers.next >= 0) {
      const parsed = parseWorkerProcesses(asWorkers.value);
      if (typeof parsed === "object") return parsed;
      workerProcesses = parsed;
      i = asWorkers.next;
    } else {
      return { error: `unknown option for start: ${args[i]}` };
    }
  }
  if (workerProcesses !== null && role !== "all") {
    return { error: "--worker-processes applies only to a start of every role (no --role)" };
  }
  return { role, workerProcesses: workerProcesses ?? (role === "all" ? "auto" : 0) };
}

/**
 * "auto": one worker process beside the http process when the machine has a second core to run
 * it on, none (everything in one process) on a single core.
 */
export function resolveWorkerProcesses(value: number | "auto", cores: number): number {
  if (value !== "auto") return value;
  return cores > 1 ? 1 : 0;
}
