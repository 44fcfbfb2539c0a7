import { findUserByEmail } from "@hookflow/db";
import { UnauthorizedError, verifyPassword } from "@hookflow/domain";
import type { LoginContext } from "./context.js";
import { createSession, type NewSession } from "./create-session.js";
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from "./login-throttle.js";

/**
 * A valid hash of a random password: unknown emails are checked against it, so they cost the
 * same scrypt work as a wrong password and cannot be told apart by timing.
 */
const DECOY_HASH =
  "scrypt$16384$8$1$hIBP0lntjulsARQv+22jPA==$wnaEPCPHXPuSw87SXyriJfEfd4eXrk9lt5t0KvFRDmhl9REcOox+D77roH6g4Fkjg3EmnQ6ygFAWGpM8yQUGVQ==";

export interface LogInInput {
  email: string;
  password: string;
  /** The client address, for the per-address failure limit. */
  address: string;
}

/** 401 with one message for an unknown email and a wrong password; 429 past the limits. */
export async function logIn(
  ctx: LoginContext,
  input: LogInInput,
): Promise<NewSession & { userId: string }> {
  const email = input.email.trim().toLowerCase();
  await assertLoginAllowed(ctx, email, input.address);
  const user = await findUserByEmail(ctx.db, email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? DECOY_HASH);
  if (!user || !matches) {
    await recordLoginFailure(ctx, email, input.address);
    throw new UnauthorizedError("Invalid email or password");
  }
  await clearLoginFailures(ctx, email, input.address);
  const session = await createSession(ctx, user.id);
  return { ...session, userId: user.id };
}
