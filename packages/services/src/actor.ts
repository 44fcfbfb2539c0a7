/** Scopes of docs/decisions.md, "Identity and tenancy". A session holds every scope. */
export const SCOPES = [
  "events:read",
  "events:write",
  "webhooks:read",
  "webhooks:write",
  "deliveries:read",
  "canvas:read",
  "canvas:write",
  "alerts:read",
  "alerts:write",
  "telemetry:read",
] as const;
export type Scope = (typeof SCOPES)[number];

export interface Actor {
  kind: "session" | "apiKey";
  userId: string;
  /** The organization the request acts for (header `X-Organization-Id` or the key's org). */
  organizationId: string | null;
  /** Organizations the user belongs to, with the user's role. */
  memberships: ReadonlyMap<string, "owner" | "admin" | "member">;
  scopes: ReadonlySet<Scope>;
  apiKeyId: string | null;
  /** The API key's or the session's id: the subject of the per-credential rate limit. */
  credentialId: string;
  /** An organization-bound key only reaches its organization's resources. */
  restrictedToOrganization: string | null;
}

/** Anything owned: every resource row carries these two columns. */
export interface Owned {
  ownerId: string;
  organizationId: string | null;
}
