import { z } from "@hono/zod-openapi";
import {
  type AdditionalTargetRow,
  countTargetsOfWebhooks,
  type DbExecutor,
  findAdditionalTargetById,
  findOwnerPlan,
} from "@hookflow/db";
import {
  ForbiddenError,
  NotFoundError,
  type OwnerColumns,
  ValidationError,
} from "@hookflow/domain";
import type { Actor } from "@hookflow/services";
import { assertVisible } from "@hookflow/services";
import { errorResponsesOf } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { checkReferencedRecords } from "../nodes/check-node-references.js";

export { actingScope, BEARER, scopeGuard } from "../../http/route-kit.js";

export const TARGETS_TAG = "Additional targets";

export const TargetIdParams = z.object({
  id: z
    .string()
    .min(1)
    .openapi({ param: { name: "id", in: "path" }, example: "tgt_01J9Z3K8Q4T6V2X7Y5W0A1B2C3" }),
});

const ERROR_TEXT = {
  400: "Invalid request or reference; the message names the field",
  401: "Missing, unknown or expired credential",
  403: "Target of another owner, a key without the scope, or maxRetries above the plan's limit",
  404: "No additional target with this id",
} as const;

export function errorResponses(...codes: Array<keyof typeof ERROR_TEXT>) {
  return errorResponsesOf(ERROR_TEXT, codes);
}

/** The target with this id if the actor may see it: 404 when absent, 403 when not theirs. */
export async function loadVisibleTarget(
  services: ApiServices,
  actor: Actor,
  id: string,
): Promise<AdditionalTargetRow> {
  return assertVisible(actor, await findAdditionalTargetById(services.db.db, id), "Target");
}

export function targetGone(): NotFoundError {
  return new NotFoundError("Target not found");
}

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

/**
 * Additional targets one webhook may feed at most: each event of the webhook makes one job per
 * target, so the fan-out of one request stays bounded (docs/decisions.md, "Additional targets").
 */
const MAX_TARGETS_PER_WEBHOOK = 25;

/**
 * Every webhook in `inputNodes` must exist, be visible to the caller and be of the target's own
 * owner scope (400 naming the field otherwise; another owner's webhook reads as unknown).
 */
export async function checkTargetInputs(
  db: DbExecutor,
  actor: Actor,
  target: OwnerColumns & { id: string },
  inputNodes: ReadonlyArray<{ nodeId: string }>,
  alreadyLinked: ReadonlySet<string> = new Set(),
): Promise<void> {
  const duplicates = new Set<string>();
  inputNodes.forEach((input, i) => {
    if (duplicates.has(input.nodeId)) {
      throw new ValidationError(`inputNodes.${i}.nodeId: Duplicate webhook ${input.nodeId}`);
    }
    duplicates.add(input.nodeId);
  });
  await checkReferencedRecords(
    db,
    actor,
    target.id,
    inputNodes.flatMap((input, i) =>
      alreadyLinked.has(input.nodeId)
        ? []
        : [{ field: `inputNodes.${i}.nodeId`, id: input.nodeId, type: "webhook" as const }],
    ),
    target,
  );
  const added = inputNodes.filter((input) => !alreadyLinked.has(input.nodeId));
  const counts = await countTargetsOfWebhooks(
    db,
    added.map((input) => input.nodeId),
    target.id,
  );
  inputNodes.forEach((input, i) => {
    if (alreadyLinked.has(input.nodeId)) return;
    if ((counts.get(input.nodeId) ?? 0) < MAX_TARGETS_PER_WEBHOOK) return;
    throw new ValidationError(
      `inputNodes.${i}.nodeId: webhook ${input.nodeId} already feeds ${MAX_TARGETS_PER_WEBHOOK} ` +
        `additional targets, the most one webhook may have`,
    );
  });
}
