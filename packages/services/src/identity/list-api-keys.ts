import { listApiKeysOfOwner } from "@hookflow/db";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";
import { type PublicApiKey, presentApiKey } from "./present.js";
import { requireSession } from "./require-session.js";

/** The caller's active keys: prefixes only, never the values. */
export async function listApiKeys(ctx: IdentityContext, actor: Actor): Promise<PublicApiKey[]> {
  requireSession(actor, "Managing API keys");
  const rows = await listApiKeysOfOwner(ctx.db.db, actor.userId);
  return rows.map(presentApiKey);
}
