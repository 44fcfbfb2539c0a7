import type { CredentialRow } from "@hookflow/db";
import {
  CREDENTIAL_TYPES,
  type CredentialData,
  type CredentialType,
  credentialPreview,
  credentialSealContext,
  type KeyRing,
  parseCredentialData,
  type Sealed,
} from "@hookflow/domain";

/** A credential as every verb answers it: never the data, only its non-secret preview. */
export interface CredentialView {
  id: string;
  name: string;
  type: CredentialType;
  /** The non-secret part of the data; null when the stored value cannot be opened. */
  preview: Record<string, unknown> | null;
  ownerId: string;
  organizationId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export function isCredentialType(value: string): value is CredentialType {
  return (CREDENTIAL_TYPES as readonly string[]).includes(value);
}

/** The row's data opened and checked against its type; undefined when it cannot be opened. */
function openCredential(keyRing: KeyRing, row: CredentialRow): CredentialData | undefined {
  if (!isCredentialType(row.type)) return undefined;
  try {
    const plain = keyRing.open(row.data as Sealed, credentialSealContext(row.id));
    return parseCredentialData(row.type, JSON.parse(plain));
  } catch {
    return undefined;
  }
}

export function sealCredentialData(keyRing: KeyRing, id: string, data: CredentialData): string {
  return keyRing.seal(JSON.stringify(data.data), credentialSealContext(id));
}

/** What every verb answers: never the data, only its preview. */
export function toCredentialView(keyRing: KeyRing, row: CredentialRow): CredentialView {
  const opened = openCredential(keyRing, row);
  return {
    id: row.id,
    name: row.name,
    type: isCredentialType(row.type) ? row.type : "bearer",
    preview: opened ? credentialPreview(opened) : null,
    ownerId: row.ownerId,
    organizationId: row.organizationId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
