import { findUserByEmail, replacePasswordHash, type UserRow } from "@hookflow/db";
import { RateLimitedError, UnauthorizedError } from "@hookflow/domain";
import type { LoginContext } from "./context.js";
import { createSession, type NewSession } from "./create-session.js";

/**
 * A valid hash of a random password at today's parameters: unknown emails are checked against
 * it, so they cost the same scrypt work as a wrong password and cannot be told apart by timing.
 */
const DECOY_HASH =
  "scrypt$131072$8$1$809j+Z8E4TNIDAq7qWv1dQ==$qInblXPWdhT3rsCp/Aft8qCI7HRByw+bUQ3uLfEWGw5Y5O3wP5bLVgBtVNg9tT5Of0ChdEutbH2WTkC2DPL3qA==";

export interface LogInInput {
  email: string;
  password: string;
  /** The client address (TRUSTED_PROXIES decides whether a forwarded one is believed). */
  address: string;
}

/**
 * 401 with one message for an unknown email and a wrong password; 429 while the throttle holds
 * this account and address back (the attempt is counted before the password is checked). A
 * successful login stores a fresh hash when the stored one has weaker parameters than today's.
 */
export async function logIn(
  ctx: LoginContext,
  input: LogInInput,
): Promise<NewSession & { userId: string }> {
  const email = input.email.trim().toLowerCase();
  try {
    await ctx.loginThrottle.admit(email, input.address);
  } catch (error) {
    if (error instanceof RateLimitedError)
      ctx.apiMetrics.loginAttempts.inc({ outcome: "throttled" });
    throw error;
  }
  const user = await findUserByEmail(ctx.db.db, email);
  const { matches, rehash } = await ctx.passwords.verify(
    input.password,
    user?.passwordHash ?? DECOY_HASH,
  );
  if (!user || !matches) {
    ctx.apiMetrics.loginAttempts.inc({ outcome: "failure" });
    throw new UnauthorizedError("Invalid email or password");
  }
  ctx.apiMetrics.loginAttempts.inc({ outcome: "success" });
  await ctx.loginThrottle.forgive(email, input.address);
  if (rehash) await upgradeHash(ctx, user, input.password);
  const session = await createSession(ctx, user.id);
  return { ...session, userId: user.id };
}

async function upgradeHash(ctx: LoginContext, user: UserRow, password: string): Promise<void> {
  await replacePasswordHash(ctx.db.db, {
    userId: user.id,
    previousHash: user.passwordHash,
    passwordHash: await ctx.passwords.hash(password),
    now: ctx.now(),
  });
}
