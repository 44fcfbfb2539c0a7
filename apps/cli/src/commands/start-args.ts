/** The roles a process can run alone; `start` without a role runs all of them. */
export const ROLES = ["api", "ingress", "worker", "stream"] as const;
export type Role = (typeof ROLES)[number];

export type StartArgs = { role: Role | "all" } | { error: string };

/** `start [--role <role>|all]` (also `--role=<role>`); the default runs every role. */
export function parseStartArgs(args: string[]): StartArgs {
  let role: Role | "all" = "all";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    let value: string | undefined;
    if (arg === "--role") value = args[++i];
    else if (arg.startsWith("--role=")) value = arg.slice("--role=".length);
    else return { error: `unknown option for start: ${arg}` };
    if (value === "all" || (ROLES as readonly string[]).includes(value ?? "")) {
      role = value as Role | "all";
    } else {
      return { error: `--role must be one of ${ROLES.join(", ")} (got ${value ?? "nothing"})` };
    }
  }
  return { role };
}
