import {
  deleteWebhook as deleteWebhookRow,
  detachWebhookFromChains,
  detachWebhookFromTargets,
  findWebhookJobRefs,
  withGraphWriteLock,
} from "@hookflow/db";
import { NotFoundError, ownerScopeOf } from "@hookflow/domain";
import { requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { detachReferences } from "../nodes/detach-references.js";
import { publishGraphChanged } from "../nodes/node-records.js";
import { removeWebhookJobs, WEBHOOK_DELETE_MAX_JOBS } from "./remove-webhook-jobs.js";
import { loadVisibleWebhook, publishWebhookChanged } from "./webhook-records.js";

/**
 * Deletes the webhook with its events and delivery attempts (docs/decisions.md, "Webhook
 * delete"). In the same transaction it is removed from every node, additional target and chain
 * that references it; 409 when a node of its own owner cannot do without it. Its waiting and
 * delayed jobs are removed from the queues afterwards.
 */
export async function deleteWebhook(
  ctx: ServiceContext,
  actor: Actor,
  input: { id: string },
): Promise<void> {
  requireScope(actor, "webhooks:write");
  const { id } = input;
  const webhook = await loadVisibleWebhook(ctx, actor, id);
  const scope = ownerScopeOf(webhook);
  const result = await withGraphWriteLock(ctx.db.db, scope, async (tx) => {
    const detached = await detachReferences(tx, webhook, ctx.now());
    await detachWebhookFromTargets(tx, id, ctx.now());
    const unchained = await detachWebhookFromChains(tx, id, ctx.now());
    const jobs = await findWebhookJobRefs(tx, id, WEBHOOK_DELETE_MAX_JOBS);
    return { deleted: await deleteWebhookRow(tx, id), detached, unchained, jobs };
  });
  const { deleted, detached, unchained, jobs } = result;
  if (!deleted) throw new NotFoundError("Webhook not found");
  await removeWebhookJobs(ctx, id, jobs);
  await publishWebhookChanged(ctx, id);
  for (const changed of unchained) await publishWebhookChanged(ctx, changed);
  await publishGraphChanged(ctx, detached);
}
