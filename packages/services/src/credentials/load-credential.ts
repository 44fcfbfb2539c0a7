import { type CredentialRow, findCredentialById } from "@hookflow/db";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

/** The credential with this id if the actor may see it: 404 when there is none, 403 otherwise. */
export async function loadVisibleCredential(
  ctx: Pick<ServiceContext, "db">,
  actor: Actor,
  id: string,
): Promise<CredentialRow> {
  const row = await findCredentialById(ctx.db.db, id);
  return assertVisible(actor, row, "Credential");
}
