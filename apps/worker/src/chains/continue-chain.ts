import { createHash } from "node:crypto";
import { type ChainContext, claimForwards, findChainContext, insertChainStep } from "@hookflow/db";
import { newId, sameOwnerScope } from "@hookflow/domain";
import { deliveryJobOf, enqueueDeliveries } from "@hookflow/queue";
import type { WorkerServices } from "../services.js";
import { chainPayloadText, originalOf, previousBody } from "./chain-payload.js";

/** The event that was just delivered (or found delivered by a redelivered job). */
export interface DeliveredEvent {
  eventId: string;
  webhookId: string;
  chainStep: number | null;
  /** The event's webhook's own chain (an origin event continues along it). */
  chainWebhookIds: readonly string[];
}

/** Whether a delivered event may have a next chain step: costs nothing for the others. */
function mayContinueChain(event: DeliveredEvent): boolean {
  return event.chainStep !== null || event.chainWebhookIds.length > 0;
}

/**
 * Creates the next step of a chain after a step's (or the origin's) successful delivery
 * (docs/decisions.md, "Chains"): a new event in the next webhook of the origin webhook's
 * `chainWebhookIds`, with `parentEventId`, `chainStep` and the chain payload, then its delivery
 * job. Durable and exactly once: the event is unique per parent and step, its forward claim is
 * keyed by the same, and a job that finds its event already delivered calls this again (a worker
 * that died between the record and here), so a lost continuation is redone and never doubled. A
 * step into another owner's webhook, past `GRAPH_MAX_FORWARD_DEPTH` or past the root's
 * `GRAPH_MAX_DESCENDANTS` is not created: the chain stops there (logged and streamed).
 */
export async function continueChain(
  services: WorkerServices,
  event: DeliveredEvent,
): Promise<void> {
  if (!mayContinueChain(event)) return;
  const context = await findChainContext(services.db.db, event.eventId);
  if (context?.status !== "delivered" || !context.lastSuccess) return;
  if (context.originWebhookId === null) return;
  const origin = await services.webhooks.get(context.originWebhookId);
  const index = context.chainStep ?? 0;
  const nextWebhookId = origin?.chainWebhookIds[index];
  if (!origin || nextWebhookId === undefined) return;
  const next = await services.webhooks.get(nextWebhookId);
  if (!next) return;
  const step = index + 1;
  if (!sameOwnerScope(next, origin)) {
    return stopChain(
      services,
      context,
      nextWebhookId,
      step,
      "the webhook belongs to another owner",
    );
  }
  const claimKey = createHash("sha256")
    .update(`chain\n${context.id}\n${step}\n${nextWebhookId}`)
    .digest("base64url")
    .slice(0, 24);
  const claimed = await claimForwards(services.db, {
    eventId: context.id,
    keys: [claimKey],
    maxDescendants: services.config.graphMaxDescendants,
    maxDepth: services.config.graphMaxForwardDepth,
  });
  if (claimed.kind !== "claimed" || !claimed.granted.has(claimKey)) {
    return stopChain(services, context, nextWebhookId, step, limitReason(services, claimed.kind));
  }
  await createStep(services, context, {
    nextWebhookId,
    priority: next.priority,
    step,
    root: claimed.rootEventId,
  });
}

async function createStep(
  services: WorkerServices,
  context: ChainContext,
  next: { nextWebhookId: string; priority: number; step: number; root: string },
): Promise<void> {
  const success = context.lastSuccess ?? { statusCode: 0, responseBody: "" };
  const body = chainPayloadText({
    original: originalOf(context.body, context.chainStep),
    previous: { statusCode: success.statusCode, body: previousBody(success.responseBody) },
  });
  const created = await insertChainStep(services.db.db, {
    id: newId("event"),
    webhookId: next.nextWebhookId,
    parentEventId: context.id,
    chainStep: next.step,
    chainOriginEventId: context.chainOriginEventId ?? context.id,
    rootEventId: next.root,
    forwardDepth: context.forwardDepth + 1,
    priority: next.priority,
    eventType: context.eventType,
    body,
    now: services.now(),
  });
  services.steps.step(context.id, {
    nodeType: "chain",
    nodeId: next.nextWebhookId,
    nodeName: `chain step ${next.step}`,
    status: "success",
  });
  if (created.status !== "pending") return;
  await enqueueDeliveries(services.queues, [
    deliveryJobOf({ id: created.id, webhookId: next.nextWebhookId, priority: next.priority }),
  ]);
}

function limitReason(services: WorkerServices, kind: string): string {
  const { graphMaxDescendants: max, graphMaxForwardDepth: depth } = services.config;
  if (kind === "too_deep")
    return `chains and forwards nest at most ${depth} levels (GRAPH_MAX_FORWARD_DEPTH)`;
  if (kind === "root_gone") return "the event this chain descends from was deleted";
  if (kind === "event_gone") return "the event was deleted";
  return `at most ${max} events may descend from one ingress event (GRAPH_MAX_DESCENDANTS)`;
}

function stopChain(
  services: WorkerServices,
  context: ChainContext,
  webhookId: string,
  step: number,
  reason: string,
): void {
  const node = { nodeType: "chain", nodeId: webhookId, nodeName: `chain step ${step}` };
  services.steps.step(context.id, {
    ...node,
    status: "blocked",
    error: `chain stopped: ${reason}`,
  });
  services.logger.info({ eventId: context.id, webhookId, step, reason }, "chain stopped");
}
