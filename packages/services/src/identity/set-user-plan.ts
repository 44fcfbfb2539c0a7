import { type OwnerPlan, setUserPlan as setUserPlanRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";

/** `hookflow admin set-plan --email`: the plan of a user's personal records; 404 for no such user. */
export async function setUserPlan(
  ctx: Pick<IdentityContext, "db">,
  input: { email: string; plan: OwnerPlan },
): Promise<{ email: string; plan: OwnerPlan }> {
  if (!(await setUserPlanRow(ctx.db.db, input.email, input.plan))) {
    throw new NotFoundError(`No user with email ${input.email}`);
  }
  return { email: input.email.toLowerCase(), plan: input.plan };
}
