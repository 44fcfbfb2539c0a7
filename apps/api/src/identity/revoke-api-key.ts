import { findApiKeyById, revokeApiKey as revokeApiKeyRow } from "@hookflow/db";
import { ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";

/** Revokes one of the user's keys; 404 for an unknown or already revoked key, 403 for another's. */
export async function revokeApiKey(
  ctx: IdentityContext,
  input: { userId: string; apiKeyId: string },
): Promise<void> {
  const key = await findApiKeyById(ctx.db, input.apiKeyId);
  if (!key || key.revokedAt) throw new NotFoundError("API key not found");
  if (key.ownerId !== input.userId) throw new ForbiddenError("API key belongs to another user");
  if (!(await revokeApiKeyRow(ctx.db, key.id, ctx.now()))) {
    throw new NotFoundError("API key not found");
  }
}
