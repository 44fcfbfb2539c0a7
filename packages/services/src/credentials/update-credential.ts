import { updateCredential as updateCredentialRow } from "@hookflow/db";
import { parseCredentialData, ValidationError } from "@hookflow/domain";
import { assertVisible } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";
import {
  type CredentialView,
  isCredentialType,
  sealCredentialData,
  toCredentialView,
} from "./credential-view.js";
import { loadVisibleCredential } from "./load-credential.js";

export interface UpdateCredentialInput {
  id: string;
  name?: string | undefined;
  /** Replaces the data whole, checked against the credential's type (which never changes). */
  data?: Record<string, unknown> | undefined;
}

export async function updateCredential(
  ctx: Pick<ServiceContext, "db" | "keyRing" | "now">,
  actor: Actor,
  input: UpdateCredentialInput,
): Promise<CredentialView> {
  const { id } = input;
  const row = await loadVisibleCredential(ctx, actor, id);
  if (!isCredentialType(row.type)) throw new ValidationError("type: unknown credential type");
  const patch: { name?: string; data?: string; updatedAt: Date } = { updatedAt: ctx.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.data !== undefined) {
    patch.data = sealCredentialData(ctx.keyRing, id, parseCredentialData(row.type, input.data));
  }
  const updated = await updateCredentialRow(ctx.db.db, id, patch);
  return toCredentialView(ctx.keyRing, assertVisible(actor, updated, "Credential"));
}
