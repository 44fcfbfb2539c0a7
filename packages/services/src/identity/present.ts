import type { ApiKeyRow, MembershipRole, OrganizationRow, UserRow } from "@hookflow/db";
import { z } from "zod";

/** Response shapes of the identity routes; ids appear as both `id` and `_id`. */
export const PublicUser = z.object({
  id: z.string(),
  _id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

export function presentUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    _id: row.id,
    email: row.email,
    name: row.name,
    plan: row.plan,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const PublicOrganization = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  role: z.enum(["owner", "admin", "member"]),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicOrganization = z.infer<typeof PublicOrganization>;

export function presentOrganization(
  row: OrganizationRow,
  role: MembershipRole,
): PublicOrganization {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    role,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A key as lists show it: never the value, only its prefix. */
export const PublicApiKey = z.object({
  id: z.string(),
  _id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  allowedOrigins: z.array(z.string()),
  organizationId: z.string().nullable(),
  ownerId: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PublicApiKey = z.infer<typeof PublicApiKey>;

export function presentApiKey(row: ApiKeyRow): PublicApiKey {
  return {
    id: row.id,
    _id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    allowedOrigins: row.allowedOrigins,
    organizationId: row.organizationId,
    ownerId: row.ownerId,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
