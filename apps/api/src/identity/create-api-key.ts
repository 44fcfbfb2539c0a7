import { findMembershipRole, insertApiKey } from "@hookflow/db";
import { ForbiddenError, hashToken, newId, ValidationError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { type PublicApiKey, presentApiKey } from "./present.js";
import { ApiKeyFields, parseInput } from "./schemas.js";
import { apiKeyDisplayPrefix, newApiKeyValue } from "./tokens.js";

export interface CreateApiKeyInput {
  userId: string;
  name: string;
  scopes: string[];
  allowedOrigins?: string[];
  organizationId?: string | null;
  expiresAt?: string | Date | null;
}

/**
 * Issues a key for the user. The value is returned here once and stored only as its hash. A key
 * for an organization needs the user to be a member of it (403 otherwise).
 */
export async function createApiKey(
  ctx: IdentityContext,
  input: CreateApiKeyInput,
): Promise<{ apiKey: PublicApiKey; key: string }> {
  const fields = parseInput(ApiKeyFields, {
    ...input,
    expiresAt: input.expiresAt instanceof Date ? input.expiresAt.toISOString() : input.expiresAt,
  });
  const now = ctx.now();
  const expiresAt = fields.expiresAt ? new Date(fields.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw new ValidationError("expiresAt: must be in the future");
  const organizationId = fields.organizationId ?? null;
  if (organizationId && !(await findMembershipRole(ctx.db, organizationId, input.userId))) {
    throw new ForbiddenError("organizationId: not a member of this organization");
  }
  const key = newApiKeyValue();
  const row = await insertApiKey(ctx.db, {
    id: newId("apiKey"),
    name: fields.name,
    ownerId: input.userId,
    organizationId,
    prefix: apiKeyDisplayPrefix(key),
    keyHash: hashToken(key),
    scopes: fields.scopes,
    allowedOrigins: fields.allowedOrigins,
    expiresAt,
    now,
  });
  return { apiKey: presentApiKey(row), key };
}
