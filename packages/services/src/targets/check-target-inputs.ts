import { countTargetsOfWebhooks, type DbExecutor } from "@hookflow/db";
import { type OwnerColumns, ValidationError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import { checkReferencedRecords } from "../nodes/check-node-references.js";

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
