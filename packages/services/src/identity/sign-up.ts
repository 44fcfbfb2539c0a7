import type { HookflowConfig } from "@hookflow/config";
import { ForbiddenError } from "@hookflow/domain";
import type { ServiceContext } from "../context.js";
import type { FixedWindow } from "../fixed-window.js";
import type { SessionContext } from "./context.js";
import { createSession } from "./create-session.js";
import { createUserAccount } from "./create-user-account.js";
import type { PublicUser } from "./present.js";
import type { CreateUserAccountInput } from "./schemas.js";
import { assertSignupAllowed } from "./signup-limit.js";

/** Signup also reads ALLOW_SIGNUP and counts signups per client address in Redis. */
export interface SignUpContext extends SessionContext, Pick<ServiceContext, "keys"> {
  config: Pick<HookflowConfig, "sessionTtlSeconds" | "allowSignup">;
  fixedWindow: FixedWindow;
}

/**
 * Creates an account and opens its first session. 403 while signup is disabled, 429 past
 * `SIGNUPS_PER_ADDRESS_PER_HOUR` from one client address, 409 for a taken email.
 */
export async function signUp(
  ctx: SignUpContext,
  input: CreateUserAccountInput & { address: string },
): Promise<{ user: PublicUser; token: string }> {
  if (!ctx.config.allowSignup) throw new ForbiddenError("Signup is disabled");
  const { address, ...account } = input;
  await assertSignupAllowed(ctx, address);
  const user = await createUserAccount(ctx, account);
  const session = await createSession(ctx, user.id);
  return { user, token: session.token };
}
