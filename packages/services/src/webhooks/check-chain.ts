import { findWebhookChainLinks } from "@hookflow/db";
import { ValidationError } from "@hookflow/domain";
import { canSee } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

const MAX_CHAIN_WALK = 1000;

/**
 * `chainWebhookIds` must name existing webhooks the caller can see, never the webhook itself, and
 * must not close a loop (A -> B -> A would deliver forever; docs/decisions.md, "Chains").
 */
export async function checkChainTargets(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  selfId: string | null,
  ids: readonly string[],
): Promise<void> {
  if (ids.length === 0) return;
  if (selfId !== null && ids.includes(selfId)) {
    throw new ValidationError("chainWebhookIds: A webhook cannot be chained to itself");
  }
  const db = ctx.db.db;
  const links = await findWebhookChainLinks(db, ids);
  const byId = new Map(links.map((link) => [link.id, link]));
  for (const id of ids) {
    const link = byId.get(id);
    if (!link || !canSee(actor, link)) {
      throw new ValidationError(`chainWebhookIds: Unknown webhook ${id}`);
    }
  }
  if (selfId === null) return;

  // Walk the existing chain edges from the new targets; reaching selfId means a loop.
  const seen = new Set<string>(ids);
  let frontier = links.flatMap((link) => link.chainWebhookIds);
  while (frontier.length > 0 && seen.size < MAX_CHAIN_WALK) {
    if (frontier.includes(selfId)) {
      throw new ValidationError("chainWebhookIds: The chain would loop back to this webhook");
    }
    const next = frontier.filter((id) => !seen.has(id));
    for (const id of next) seen.add(id);
    frontier = (await findWebhookChainLinks(db, next)).flatMap((link) => link.chainWebhookIds);
  }
}
