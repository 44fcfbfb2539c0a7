import {
  type Database,
  findActiveApiKey,
  findLiveSession,
  listMembershipsOfUser,
  touchApiKey,
} from "@hookflow/db";
import { ForbiddenError, hashToken, UnauthorizedError } from "@hookflow/domain";
import { type Actor, API_KEY_PREFIX, SCOPES, type Scope } from "@hookflow/services";
import type { MiddlewareHandler } from "hono";

export type AuthEnv = {
  Variables: {
    actor: Actor;
    /** Set when the request's key does not accept its `Origin`: CORS then allows nothing. */
    originRefused?: boolean;
  };
};

type Role = "owner" | "admin" | "member";

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

function originAllowed(allowed: string[], origin: string | undefined): boolean {
  if (allowed.length === 0 || origin === undefined) return true;
  return allowed.includes(origin.replace(/\/+$/, ""));
}

export interface AuthenticateOptions {
  db: Database;
  now?: () => Date;
}

/**
 * Resolves `Authorization: Bearer <api key | session token>` to an Actor. 401 for a missing,
 * unknown, revoked or expired credential; 403 for a key used from an origin it does not allow or
 * for an organization the user is not a member of.
 */
export function authenticate(options: AuthenticateOptions): MiddlewareHandler<AuthEnv> {
  const now = options.now ?? (() => new Date());
  return async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw new UnauthorizedError("Missing bearer token");
    const at = now();
    const hash = hashToken(token);

    let userId: string;
    let scopes: ReadonlySet<Scope>;
    let apiKeyId: string | null = null;
    let credentialId: string;
    let keyOrganization: string | null = null;

    if (token.startsWith(API_KEY_PREFIX)) {
      const key = await findActiveApiKey(options.db, hash);
      if (!key) throw new UnauthorizedError("Invalid or revoked API key");
      if (key.expiresAt && key.expiresAt <= at) throw new UnauthorizedError("API key expired");
      if (!originAllowed(key.allowedOrigins, c.req.header("origin"))) {
        c.set("originRefused", true);
        throw new ForbiddenError("Origin not allowed for this API key");
      }
      userId = key.ownerId;
      scopes = new Set(
        key.scopes.filter((s): s is Scope => (SCOPES as readonly string[]).includes(s)),
      );
      apiKeyId = key.id;
      credentialId = key.id;
      keyOrganization = key.organizationId;
      // Fire and forget: a lost "last used" stamp is not worth a slower request.
      touchApiKey(options.db, key.id, at).catch(() => {});
    } else {
      const session = await findLiveSession(options.db, hash, at);
      if (!session) throw new UnauthorizedError("Invalid or expired session");
      userId = session.userId;
      credentialId = session.sessionId;
      scopes = new Set(SCOPES);
    }

    const rows = await listMembershipsOfUser(options.db, userId);
    const memberships = new Map<string, Role>(rows.map((r) => [r.organizationId, r.role as Role]));

    let organizationId = keyOrganization;
    const requested = c.req.header("x-organization-id");
    if (requested) {
      if (keyOrganization !== null && requested !== keyOrganization) {
        throw new ForbiddenError("This API key acts for another organization");
      }
      if (!memberships.has(requested))
        throw new ForbiddenError("Not a member of this organization");
      organizationId = requested;
    }
    if (keyOrganization !== null && !memberships.has(keyOrganization)) {
      throw new ForbiddenError("The key's owner is no longer a member of its organization");
    }

    c.set("actor", {
      kind: apiKeyId ? "apiKey" : "session",
      userId,
      organizationId,
      memberships,
      scopes,
      apiKeyId,
      credentialId,
      restrictedToOrganization: keyOrganization,
    });
    await next();
  };
}
