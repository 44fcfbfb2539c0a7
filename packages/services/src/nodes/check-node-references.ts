import {
  type DbExecutor,
  findGraphWebhooks,
  findPipelineNodesByIds,
  type OwnedRow,
  type PipelineNodeRow,
} from "@hookflow/db";
import {
  describeOwnerScope,
  type OwnerColumns,
  ownerScopeOf,
  sameOwnerScope,
  ValidationError,
} from "@hookflow/domain";
import {
  type FamilyKey,
  familyOfNodeType,
  type InputNode,
  type NodeInput,
  type NodeType,
  outputReferencesOf,
} from "@hookflow/pipeline";
import { canSee } from "../access.js";
import type { Actor } from "../actor.js";
import { checkFeedingWorkflow } from "../schedules/feeding-workflows.js";

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
 * A record a write names: the body `field` naming it, its id, and what it must be: a webhook, a
 * node of the family of a node type (types without a family name nothing), or `node`, a node of
 * any family. A 400 calls it `label` (the type by default).
 */
export interface RecordReference {
  field: string;
  id: string;
  type: NodeType | "node";
  label?: string;
}

/** The records a write names, by id. */
export interface NamedRecords {
  nodes: ReadonlyMap<string, PipelineNodeRow>;
  webhooks: ReadonlyMap<string, OwnedRow>;
}

/**
 * 400 unless `record` lives in the owner scope of `owner` (the node being written): a node only
 * connects records of its own organization or personal space, so no graph carries one tenant's
 * events into another's records. The caller can see the record, so naming its scope tells them
 * nothing new.
 */
function checkSameScope(field: string, what: string, record: OwnerColumns, owner: OwnerColumns) {
  if (sameOwnerScope(record, owner)) return;
  throw new ValidationError(
    `${field}: ${what} belongs to ${describeOwnerScope(ownerScopeOf(record))}, this node to ` +
      `${describeOwnerScope(ownerScopeOf(owner))}; a node only connects records of its own ` +
      "organization or personal space",
  );
}

/**
 * Every reference must name an existing record of the stated type that the caller can see
 * (docs/decisions.md, "Node families and canvas"); otherwise 400 naming the field and the id. Another owner's record
 * reads as unknown, so ids of other tenants are not confirmed. Nothing references `selfId`.
 * With `owner` (a node write), each record must also be of the node's owner scope (400).
 * Returns the nodes and webhooks named, by id, for callers that go on to use them.
 */
export async function checkReferencedRecords(
  db: DbExecutor,
  actor: Actor,
  selfId: string | null,
  refs: readonly RecordReference[],
  owner?: OwnerColumns,
): Promise<NamedRecords> {
  if (refs.length === 0) return { nodes: new Map(), webhooks: new Map() };
  const webhookIds = refs.filter((r) => r.type === "webhook").map((r) => r.id);
  const nodeIds = refs.filter((r) => r.type !== "webhook").map((r) => r.id);
  const [webhooks, nodes] = await Promise.all([
    findGraphWebhooks(db, webhookIds),
    findPipelineNodesByIds(db, nodeIds),
  ]);
  const webhookById = new Map<string, OwnedRow>(webhooks.map((w) => [w.id, w]));
  const nodeById = new Map(nodes.map((n) => [n.id, n]));

  for (const ref of refs) {
    if (ref.id === selfId) {
      throw new ValidationError(`${ref.field}: A node cannot reference itself (cycle ${selfId})`);
    }
    const unknown = new ValidationError(`${ref.field}: Unknown ${ref.label ?? ref.type} ${ref.id}`);
    if (ref.type === "webhook") {
      const webhook = webhookById.get(ref.id);
      if (!webhook || !canSee(actor, webhook)) throw unknown;
      if (owner) checkSameScope(ref.field, `webhook ${ref.id}`, webhook, owner);
      continue;
    }
    const node = nodeById.get(ref.id);
    if (!node || !canSee(actor, node)) throw unknown;
    if (ref.type !== "node" && node.family !== familyOfNodeType(ref.type)) throw unknown;
    checkFeedingWorkflow(ref.field, node);
    if (owner) checkSameScope(ref.field, `${ref.label ?? ref.type} ${ref.id}`, node, owner);
  }
  return { nodes: nodeById, webhooks: webhookById };
}

/**
 * The references of a node write (inputNodes and outputs) must name visible records of the
 * node's own owner scope (`node`: the node written, with its owner columns).
 */
export async function checkNodeReferences(
  db: DbExecutor,
  actor: Actor,
  node: OwnerColumns & { id: string },
  refs: readonly NamedReference[],
): Promise<void> {
  await checkReferencedRecords(
    db,
    actor,
    node.id,
    refs.map((ref) => ({ field: ref.field, id: ref.nodeId, type: ref.nodeType })),
    node,
  );
}
