import { type DbExecutor, findCredentialsByIds } from "@hookflow/db";
import {
  type CredentialType,
  type OwnerColumns,
  sameOwnerScope,
  ValidationError,
} from "@hookflow/domain";
import { credentialReferencesOf, type FamilyConfig, type FamilyKey } from "@hookflow/pipeline";
import { canSee } from "../access.js";
import type { Actor } from "../actor.js";

/** The credential types each family can use (others have no credential). */
const USABLE: Readonly<Record<string, readonly CredentialType[]>> = {
  httpAction: ["bearer", "basic"],
  sheetsAction: ["google_oauth"],
  gmailAction: ["google_oauth"],
  mongoAction: ["mongodb"],
};

/**
 * A credential a node names must exist, be visible to the caller, be of the node's own owner
 * scope and of a type the family uses: otherwise 400 naming the field (another owner's
 * credential reads as unknown, so its existence is not confirmed).
 */
export async function checkCredentialReferences<F extends FamilyKey>(
  db: DbExecutor,
  actor: Actor,
  node: OwnerColumns & { family: F },
  config: FamilyConfig<F>,
): Promise<void> {
  // Families not listed check their own credentials (an AI node's, say).
  const usable = USABLE[node.family];
  if (!usable) return;
  const refs = credentialReferencesOf(node.family, config);
  if (refs.length === 0) return;
  const rows = await findCredentialsByIds(
    db,
    refs.map((ref) => ref.credentialId),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const ref of refs) {
    const row = byId.get(ref.credentialId);
    if (!row || !canSee(actor, row)) {
      throw new ValidationError(`${ref.field}: Unknown credential ${ref.credentialId}`);
    }
    if (!sameOwnerScope(row, node)) {
      throw new ValidationError(
        `${ref.field}: credential ${ref.credentialId} belongs to another organization or personal space than this node`,
      );
    }
    if (!(usable as readonly string[]).includes(row.type)) {
      throw new ValidationError(
        `${ref.field}: credential ${ref.credentialId} is of type ${row.type}; this node needs ${usable.join(" or ")}`,
      );
    }
  }
}
