import { parseArgs } from "node:util";
import type { HookflowConfig } from "@hookflow/config";
import { setOrganizationPlan, setUserPlan } from "@hookflow/services";
import { type AdminIo, parseOrUsage, processIo, runAdmin, UsageError } from "./admin-shared.js";

const SET_PLAN_USAGE = `Usage: hookflow admin set-plan (--email <email> | --org <organization id>) free|pro

Sets the plan of a user (their personal records) or of an organization (its records). Plans
limit additional targets' maxRetries: free 3, pro 10. New users and organizations are on free.
`;

const PLANS = ["free", "pro"] as const;
type Plan = (typeof PLANS)[number];

function isPlan(value: string | undefined): value is Plan {
  return (PLANS as readonly string[]).includes(value ?? "");
}

/** `hookflow admin set-plan`: exit 0 set, 1 failed (unknown user or organization), 2 invalid input. */
export async function run(
  args: string[],
  config: HookflowConfig,
  io: AdminIo = processIo,
): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(SET_PLAN_USAGE);
    return 0;
  }
  const input = parseOrUsage(io, SET_PLAN_USAGE, () => {
    const { values, positionals } = parseArgs({
      args,
      options: { email: { type: "string" }, org: { type: "string" } },
      strict: true,
      allowPositionals: true,
    });
    if ((values.email === undefined) === (values.org === undefined)) {
      throw new UsageError("give exactly one of --email and --org");
    }
    const [plan, ...rest] = positionals;
    if (rest.length > 0 || !isPlan(plan)) throw new UsageError("the plan is free or pro");
    return { email: values.email?.trim(), org: values.org?.trim(), plan };
  });
  if (!input) return 2;
  return runAdmin(io, config, (ctx) =>
    input.email !== undefined
      ? setUserPlan(ctx, { email: input.email, plan: input.plan })
      : setOrganizationPlan(ctx, { organizationId: input.org ?? "", plan: input.plan }),
  );
}
