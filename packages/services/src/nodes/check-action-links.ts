import { countActionsLinkedTo, type DbExecutor } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import {
  ACTION_FAMILY_KEYS,
  type FamilyKey,
  type InputNode,
  isActionFamily,
  MAX_ACTIONS_PER_INPUT,
} from "@hookflow/pipeline";

/**
 * An action may not join a webhook or node that already feeds MAX_ACTIONS_PER_INPUT actions
 * (400 naming the input): one event must not fan out into unbounded work. Runs under the graph
 * write lock of the node's scope, so two writes cannot pass it together.
 */
export async function checkActionLinks(
  db: DbExecutor,
  node: { id: string; family: FamilyKey; inputNodes: readonly InputNode[] },
  added: ReadonlyArray<{ nodeId: string; field: string }>,
): Promise<void> {
  if (!isActionFamily(node.family)) return;
  for (const input of added) {
    if (!input.field.startsWith("inputNodes.")) continue;
    const linked = await countActionsLinkedTo(db, {
      inputId: input.nodeId,
      families: ACTION_FAMILY_KEYS,
      exceptId: node.id,
    });
    if (linked >= MAX_ACTIONS_PER_INPUT) {
      throw new ValidationError(
        `${input.field}: ${input.nodeId} already feeds ${linked} actions (at most ${MAX_ACTIONS_PER_INPUT} per webhook or node)`,
      );
    }
  }
}
