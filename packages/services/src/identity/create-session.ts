import { insertSession } from "@hookflow/db";
import { hashToken, newId } from "@hookflow/domain";
import type { SessionContext } from "./context.js";
import { newSessionToken } from "./tokens.js";

export interface NewSession {
  /** Shown once; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

/** Opens a session of `sessionTtlSeconds` for the user. */
export async function createSession(ctx: SessionContext, userId: string): Promise<NewSession> {
  const now = ctx.now();
  const token = newSessionToken();
  const expiresAt = new Date(now.getTime() + ctx.config.sessionTtlSeconds * 1000);
  await insertSession(ctx.db.db, {
    id: newId("session"),
    userId,
    tokenHash: hashToken(token),
    expiresAt,
    now,
  });
  return { token, expiresAt };
}
