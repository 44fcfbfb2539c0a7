import { insertUser } from "@hookflow/db";
import { ConflictError, hashPassword, newId } from "@hookflow/domain";
import type { IdentityContext } from "./context.js";
import { type PublicUser, presentUser } from "./present.js";
import { CreateUserAccountInput, parseInput } from "./schemas.js";

/**
 * Creates a user with a scrypt-hashed password. Emails are stored lower-cased and unique
 * case-insensitively: a taken email is a 409.
 */
export async function createUserAccount(
  ctx: IdentityContext,
  input: CreateUserAccountInput,
): Promise<PublicUser> {
  const { email, password, name } = parseInput(CreateUserAccountInput, input);
  const passwordHash = await (ctx.passwords?.hash ?? hashPassword)(password);
  const row = await insertUser(ctx.db.db, {
    id: newId("user"),
    email,
    name: name ?? email.slice(0, email.indexOf("@")),
    passwordHash,
    now: ctx.now(),
  });
  if (!row) throw new ConflictError("email: An account with this email already exists");
  return presentUser(row);
}
