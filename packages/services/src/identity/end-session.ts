import { deleteSessionByTokenHash } from "@hookflow/db";
import { ForbiddenError, hashToken } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { IdentityContext } from "./context.js";

/** Logs out: the session of this token stops working at once. A key is revoked instead. */
export async function endSession(
  ctx: IdentityContext,
  actor: Actor,
  input: { token: string },
): Promise<boolean> {
  if (actor.kind !== "session") {
    throw new ForbiddenError("Logout needs a session token; revoke an API key instead");
  }
  return deleteSessionByTokenHash(ctx.db.db, hashToken(input.token));
}
