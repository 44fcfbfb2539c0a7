import type { RecordListScope } from "@hookflow/db";
import type { Actor } from "../actor.js";

/**
 * The records a list shows: the organization's when the request acts for one (X-Organization-Id
 * or an organization key), else the caller's personal ones.
 */
export function actingScopeOf(actor: Actor): RecordListScope {
  return actor.organizationId !== null
    ? { organizationId: actor.organizationId }
    : { personalOf: actor.userId };
}

/** A page as the lists take it: 1-based `page` of `limit` records. */
export interface PageInput {
  page: number;
  limit: number;
}
