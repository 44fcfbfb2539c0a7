import { findUserByEmail } from "@hookflow/db";
import { NotFoundError } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { type ApiKeyInput, issueApiKey, type NewApiKey } from "./create-api-key.js";

/** `hookflow admin create-key`: an operator issues a key for the user with this email. */
export async function createUserApiKey(
  ctx: IdentityContext,
  input: ApiKeyInput & { email: string },
): Promise<NewApiKey> {
  const { email, ...fields } = input;
  const user = await findUserByEmail(ctx.db.db, email);
  if (!user) throw new NotFoundError(`No user with email ${email}`);
  return issueApiKey(ctx, { ...fields, userId: user.id });
}
