import type { RecordListScope } from "@hookflow/db";
import type { Actor } from "./actor.js";

/**
 * The records a list shows (docs/decisions.md, "Identity and tenancy"): those of the
 * organization acted for, else the user's personal ones.
 */
export function actingScope(actor: Actor): RecordListScope {
  return actor.organizationId !== null
    ? { organizationId: actor.organizationId }
    : { personalOf: actor.userId };
}

/** A page as the lists take it: 1-based `page` of `limit` records. */
export interface PageInput {
  page: number;
  limit: number;
}
