import { deleteSessionByTokenHash } from "@hookflow/db";
import { hashToken } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";

/** Logs out: the session of this token stops working at once. */
export async function endSession(ctx: IdentityContext, token: string): Promise<boolean> {
  return deleteSessionByTokenHash(ctx.db, hashToken(token));
}
