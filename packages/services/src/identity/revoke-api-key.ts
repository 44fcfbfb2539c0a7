import { findApiKeyById, revokeApiKey as revokeApiKeyRow } from "@hookflow/db";
import { ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { requireSession } from "./require-session.js";

/** Revokes one of the user's keys; 404 for an unknown or already revoked key, 403 for another's. */
export async function revokeApiKey(
  ctx: IdentityContext,
  actor: Actor,
  input: { apiKeyId: string },
): Promise<void> {
  requireSession(actor, "Managing API keys");
  const key = await findApiKeyById(ctx.db.db, input.apiKeyId);
  if (!key || key.revokedAt) throw new NotFoundError("API key not found");
  if (key.ownerId !== actor.userId) throw new ForbiddenError("API key belongs to another user");
  if (!(await revokeApiKeyRow(ctx.db.db, key.id, ctx.now()))) {
    throw new NotFoundError("API key not found");
  }
}
