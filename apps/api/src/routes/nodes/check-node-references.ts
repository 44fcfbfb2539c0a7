import {
  type DbExecutor,
  findPipelineNodesByIds,
  findWebhookOwners,
  type OwnedRow,
} from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import {
  type FamilyKey,
  familyOfNodeType,
  type InputNode,
  type NodeInput,
  outputReferencesOf,
} from "@hookflow/pipeline";
import { canSee } from "../../auth/access.js";
import type { Actor } from "../../auth/actor.js";

/** A reference a node makes, with the body field that names it. */
export interface NamedReference extends InputNode {
  field: string;
}

/** Every reference of a node: its inputNodes, then the outputs its config names. */
export function referencesOf<F extends FamilyKey>(key: F, input: NodeInput<F>): NamedReference[] {
  return [
    ...input.inputNodes.map((ref, i) => ({ ...ref, field: `inputNodes.${i}.nodeId` })),
    ...outputReferencesOf(key, input.config),
  ];
}

function referenceKey(ref: NamedReference): string {
  const direction = ref.field.startsWith("inputNodes.") ? "in" : "out";
  return `${direction}:${ref.nodeType}:${ref.nodeId}`;
}

/**
 * References of `next` that `previous` did not make, in the same direction (a node named as an
 * input and then also as an output is a new edge): a PATCH re-checks only what it adds.
 */
export function addedReferences(
  previous: readonly NamedReference[],
  next: readonly NamedReference[],
): NamedReference[] {
  const known = new Set(previous.map(referenceKey));
  return next.filter((ref) => !known.has(referenceKey(ref)));
}

/**
 * Every reference must name an existing webhook or node of the stated type that the caller can
 * see (decisions.md section 8); otherwise 400 naming the field and the id. Another owner's record
 * reads as unknown, so ids of other tenants are not confirmed. A node never references itself.
 */
export async function checkNodeReferences(
  db: DbExecutor,
  actor: Actor,
  selfId: string | null,
  refs: readonly NamedReference[],
): Promise<void> {
  if (refs.length === 0) return;
  const webhookIds = refs.filter((r) => r.nodeType === "webhook").map((r) => r.nodeId);
  const nodeIds = refs.filter((r) => r.nodeType !== "webhook").map((r) => r.nodeId);
  const [webhooks, nodes] = await Promise.all([
    findWebhookOwners(db, webhookIds),
    findPipelineNodesByIds(db, nodeIds),
  ]);
  const webhookById = new Map<string, OwnedRow>(webhooks.map((w) => [w.id, w]));
  const nodeById = new Map(nodes.map((n) => [n.id, n]));

  for (const ref of refs) {
    if (ref.nodeId === selfId) {
      throw new ValidationError(`${ref.field}: A node cannot reference itself (cycle ${selfId})`);
    }
    const unknown = new ValidationError(`${ref.field}: Unknown ${ref.nodeType} ${ref.nodeId}`);
    if (ref.nodeType === "webhook") {
      const webhook = webhookById.get(ref.nodeId);
      if (!webhook || !canSee(actor, webhook)) throw unknown;
      continue;
    }
    const family = familyOfNodeType(ref.nodeType);
    const node = nodeById.get(ref.nodeId);
    if (!family || !node || node.family !== family || !canSee(actor, node)) throw unknown;
  }
}
