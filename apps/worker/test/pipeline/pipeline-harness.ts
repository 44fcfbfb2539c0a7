import { listEventSteps, pipelineNodes } from "@hookflow/db";
import { newPrefixedId } from "@hookflow/domain";
import {
  FAMILIES,
  type FamilyConfig,
  type FamilyKey,
  type InputNode,
  type PipelineNode,
} from "@hookflow/pipeline";
import { waitUntil } from "@hookflow/testing";
import type { WorkerHarness } from "../harness.js";

export const fromWebhook = (id: string): InputNode => ({ nodeType: "webhook", nodeId: id });
export const fromNode = (node: { id: string; family: FamilyKey }): InputNode => ({
  nodeType: FAMILIES[node.family].nodeType,
  nodeId: node.id,
});

/**
 * Stores a node as the API would (family defaults applied, config validated by its schema) and
 * announces the change on the graph-changed channel, so cached graphs reload.
 */
export async function createNode<F extends FamilyKey>(
  h: WorkerHarness,
  family: F,
  config: Partial<FamilyConfig<F>>,
  inputNodes: InputNode[],
  name = `${family} node`,
  owner: { ownerId: string; organizationId: string | null } = {
    ownerId: h.ownerId,
    organizationId: null,
  },
): Promise<PipelineNode<F>> {
  const definition = FAMILIES[family];
  const parsed = definition.config.parse({ ...definition.defaults, ...config }) as FamilyConfig<F>;
  const id = newPrefixedId(definition.idPrefix);
  const now = new Date();
  await h.database.db.insert(pipelineNodes).values({
    id,
    family,
    ...owner,
    name,
    config: parsed as Record<string, unknown>,
    inputNodes,
    createdAt: now,
    updatedAt: now,
  });
  await h.services.redis.publish(
    h.services.keys.graphChangedChannel,
    JSON.stringify({ nodeId: id }),
  );
  return {
    id,
    family,
    name,
    ...owner,
    inputNodes,
    config: parsed,
    createdAt: now,
    updatedAt: now,
  };
}

/** `nodeId:status` of each recorded step of the event, oldest first. */
export async function stepOutline(h: WorkerHarness, eventId: string): Promise<string[]> {
  const steps = await listEventSteps(h.database.db, eventId);
  return steps.map((step) => `${step.nodeId}:${step.status}`);
}

export async function recordedSteps(h: WorkerHarness, eventId: string) {
  return listEventSteps(h.database.db, eventId);
}

export async function parksOf(h: WorkerHarness, eventId: string) {
  return h.database.db.query.eventParks.findMany({
    where: (p, { eq }) => eq(p.eventId, eventId),
    orderBy: (p, { asc }) => [asc(p.createdAt), asc(p.id)],
  });
}

/** Events created from `parentId` (forwards and further paths). */
export async function childrenOf(h: WorkerHarness, parentId: string) {
  return h.database.db.query.events.findMany({
    where: (e, { eq }) => eq(e.parentEventId, parentId),
    orderBy: (e, { asc }) => [asc(e.createdAt), asc(e.id)],
  });
}

/** Polls `check` until it returns a value other than undefined. */
export function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  return waitUntil(check, { timeoutMs, describe: () => what });
}
