import { deleteCredential as deleteCredentialRow, findNodesUsingCredential } from "@hookflow/db";
import { ConflictError } from "@hookflow/domain";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { loadVisibleCredential } from "./load-credential.js";

/** Deletes a credential no node uses: 409 naming a node that still does. */
export async function deleteCredential(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  input: { id: string },
): Promise<void> {
  const { id } = input;
  await loadVisibleCredential(ctx, actor, id);
  const users = await findNodesUsingCredential(ctx.db.db, id);
  const [first] = users;
  if (first) {
    throw new ConflictError(
      `Credential is used by ${first.family} node ${first.id}; change or delete it first`,
    );
  }
  await deleteCredentialRow(ctx.db.db, id);
}
