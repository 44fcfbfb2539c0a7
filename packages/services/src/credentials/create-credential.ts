import { insertCredential } from "@hookflow/db";
import { type CredentialType, newId, parseCredentialData } from "@hookflow/domain";
import { ownershipOf } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import { type CredentialView, sealCredentialData, toCredentialView } from "./credential-view.js";

export interface CreateCredentialInput {
  name: string;
  type: CredentialType;
  /** Checked against the schema of `type` (400 naming `data.<field>`). */
  data: Record<string, unknown>;
}

/** Stores a credential, its data sealed (docs/decisions.md, Credentials); answers its view. */
export async function createCredential(
  ctx: Pick<ServiceContext, "db" | "keyRing" | "now">,
  actor: Actor,
  input: CreateCredentialInput,
): Promise<CredentialView> {
  const data = parseCredentialData(input.type, input.data);
  const now = ctx.now();
  const id = newId("credential", now.getTime());
  const row = await insertCredential(ctx.db.db, {
    id,
    ...ownershipOf(actor),
    name: input.name,
    type: input.type,
    data: sealCredentialData(ctx.keyRing, id, data),
    createdAt: now,
    updatedAt: now,
  });
  return toCredentialView(ctx.keyRing, row);
}
