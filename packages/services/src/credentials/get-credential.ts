import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type CredentialView, toCredentialView } from "./credential-view.js";
import { loadVisibleCredential } from "./load-credential.js";

/** One credential, without its data. */
export async function getCredential(
  ctx: Pick<ServiceContext, "db" | "keyRing">,
  actor: Actor,
  input: { id: string },
): Promise<CredentialView> {
  const row = await loadVisibleCredential(ctx, actor, input.id);
  return toCredentialView(ctx.keyRing, row);
}
