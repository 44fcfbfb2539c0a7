/** The two owner columns every owned record carries. */
export interface OwnerColumns {
  ownerId: string;
  organizationId: string | null;
}

/**
 * Whose space a record lives in: an organization's, or one user's personal space (no
 * organization). The creator of an organization's record (`ownerId`) plays no part in it.
 */
export type OwnerScope = { organizationId: string } | { personalOf: string };

export function ownerScopeOf(record: OwnerColumns): OwnerScope {
  return record.organizationId !== null
    ? { organizationId: record.organizationId }
    : { personalOf: record.ownerId };
}

/**
 * Whether two records live in the same owner scope: the same organization, or both personal
 * records of the same user. A node graph only ever joins records of one scope.
 */
export function sameOwnerScope(a: OwnerColumns, b: OwnerColumns): boolean {
  if (a.organizationId !== null || b.organizationId !== null) {
    return a.organizationId === b.organizationId;
  }
  return a.ownerId === b.ownerId;
}

/** `organization org_1` or `the personal space of usr_1`, for messages. */
export function describeOwnerScope(scope: OwnerScope): string {
  return "organizationId" in scope
    ? `organization ${scope.organizationId}`
    : `the personal space of ${scope.personalOf}`;
}

/** A stable text key of the scope (`org:<id>` / `user:<id>`), e.g. for a lock per scope. */
export function ownerScopeKey(scope: OwnerScope): string {
  return "organizationId" in scope ? `org:${scope.organizationId}` : `user:${scope.personalOf}`;
}
