import { type OwnerPlan, setOrganizationPlan as setOrganizationPlanRow } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";

/** `hookflow admin set-plan --org`: the plan of an organization's records; 404 for no such one. */
export async function setOrganizationPlan(
  ctx: Pick<IdentityContext, "db">,
  input: { organizationId: string; plan: OwnerPlan },
): Promise<{ organizationId: string; plan: OwnerPlan }> {
  if (!(await setOrganizationPlanRow(ctx.db.db, input.organizationId, input.plan))) {
    throw new NotFoundError(`No organization ${input.organizationId}`);
  }
  return { organizationId: input.organizationId, plan: input.plan };
}
