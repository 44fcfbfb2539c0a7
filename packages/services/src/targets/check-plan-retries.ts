import { type DbExecutor, findOwnerPlan } from "@hookflow/db";
import { ForbiddenError, type OwnerColumns } from "@hookflow/domain";

/** Retries an additional target may have on each plan (docs/decisions.md, "Plans"). */
const PLAN_TARGET_MAX_RETRIES = { free: 3, pro: 10 } as const;

/** 403 naming the limit when `maxRetries` is above what the owner's plan allows. */
export async function checkPlanRetries(
  db: DbExecutor,
  owner: OwnerColumns,
  maxRetries: number,
): Promise<void> {
  const plan = await findOwnerPlan(db, owner);
  const limit = PLAN_TARGET_MAX_RETRIES[plan];
  if (maxRetries <= limit) return;
  throw new ForbiddenError(
    `maxRetries: ${maxRetries} is above the ${plan} plan's limit of ${limit} retries for an ` +
      `additional target (free ${PLAN_TARGET_MAX_RETRIES.free}, pro ${PLAN_TARGET_MAX_RETRIES.pro})`,
  );
}
