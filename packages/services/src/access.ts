import { ForbiddenError, NotFoundError } from "@hookflow/domain";
import type { Actor, Owned, Scope } from "./actor.js";

export function hasScope(actor: Actor, scope: Scope): boolean {
  return actor.scopes.has(scope);
}

export function requireScope(actor: Actor, scope: Scope): void {
  if (!actor.scopes.has(scope)) throw new ForbiddenError(`This API key lacks the ${scope} scope`);
}

/**
 * Visibility (docs/decisions.md, "Identity and tenancy"): a personal resource is visible to its owner; an
 * organization's resource to the organization's members. An organization-bound key sees only
 * its organization.
 */
export function canSee(actor: Actor, resource: Owned): boolean {
  if (actor.restrictedToOrganization !== null) {
    return resource.organizationId === actor.restrictedToOrganization;
  }
  if (resource.organizationId === null) return resource.ownerId === actor.userId;
  return actor.memberships.has(resource.organizationId);
}

/** 404 when there is no such resource, 403 when it belongs to someone else. */
export function assertVisible<T extends Owned>(
  actor: Actor,
  resource: T | undefined,
  label: string,
): T {
  if (!resource) throw new NotFoundError(`${label} not found`);
  if (!canSee(actor, resource)) throw new ForbiddenError(`${label} belongs to another owner`);
  return resource;
}

/** The owner columns a new resource gets: the user, and the organization acted for. */
export function ownershipOf(actor: Actor): Owned {
  return { ownerId: actor.userId, organizationId: actor.organizationId };
}
