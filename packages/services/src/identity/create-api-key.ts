import { findMembershipRole, insertApiKey } from "@hookflow/db";
import { ForbiddenError, hashToken, newId, ValidationError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { type PublicApiKey, presentApiKey } from "./present.js";
import { requireSession } from "./require-session.js";
import { ApiKeyFields, parseInput } from "./schemas.js";
import { apiKeyDisplayPrefix, newApiKeyValue } from "./tokens.js";

export interface ApiKeyInput {
  name: string;
  scopes: string[];
  allowedOrigins?: string[];
  organizationId?: string | null;
  expiresAt?: string | Date | null;
}

export interface NewApiKey {
  apiKey: PublicApiKey;
  /** Shown once; only its hash is stored. */
  key: string;
}

/** `POST /api/api-keys`: a person (a session, never a key) issues a key for themselves. */
export async function createApiKey(
  ctx: IdentityContext,
  actor: Actor,
  input: ApiKeyInput,
): Promise<NewApiKey> {
  requireSession(actor, "Managing API keys");
  return issueApiKey(ctx, { ...input, userId: actor.userId });
}

/**
 * Issues a key for the user. The value is returned here once and stored only as its hash. A key
 * for an organization needs the user to be a member of it (403 otherwise).
 */
export async function issueApiKey(
  ctx: IdentityContext,
  input: ApiKeyInput & { userId: string },
): Promise<NewApiKey> {
  const fields = parseInput(ApiKeyFields, {
    ...input,
    expiresAt: input.expiresAt instanceof Date ? input.expiresAt.toISOString() : input.expiresAt,
  });
  const now = ctx.now();
  const expiresAt = fields.expiresAt ? new Date(fields.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw new ValidationError("expiresAt: must be in the future");
  const organizationId = fields.organizationId ?? null;
  if (organizationId && !(await findMembershipRole(ctx.db.db, organizationId, input.userId))) {
    throw new ForbiddenError("organizationId: not a member of this organization");
  }
  const key = newApiKeyValue();
  const row = await insertApiKey(ctx.db.db, {
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
