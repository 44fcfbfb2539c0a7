import { type DbHandle, findCredentialById } from "@hookflow/db";
import {
  type CredentialData,
  credentialSealContext,
  type KeyRing,
  type OwnerColumns,
  parseCredentialData,
  type Sealed,
  sameOwnerScope,
} from "@hookflow/domain";
import type { GoogleClient } from "@hookflow/google";
import type { Mailer } from "@hookflow/mail";
import type { HttpSender } from "../delivery/http-sender.js";
import type { MongoClients } from "./mongo-clients.js";
import type { TemplateRenderer } from "./render-templates.js";

type OpenedCredential =
  | { ok: true; credential: CredentialData; sealed: string }
  | { ok: false; error: string };

/** What action executors use; built once per worker. */
export interface ActionPorts {
  http: HttpSender;
  render: TemplateRenderer;
  /** The worker's mailer: SMTP_URL, else the local outbox; mail limits included. */
  mailer: Mailer;
  /** Google's REST APIs with the credentials of one owner scope. */
  google: (owner: OwnerColumns) => GoogleClient;
  googleBaseUrls: { sheets: string; gmail: string };
  /** MongoDB clients per connection URI, with the private-address guard. */
  mongo: MongoClients;
  /**
   * The credential the action names, opened, if it is of the action's own owner scope (a
   * credential is never used across organizations, whatever a stored node says).
   */
  openCredential: (
    credentialId: string,
    owner: { ownerId: string; organizationId: string | null },
  ) => Promise<OpenedCredential>;
}

export function createCredentialOpener(
  db: DbHandle,
  keyRing: KeyRing,
): ActionPorts["openCredential"] {
  return async (credentialId, owner) => {
    const row = await findCredentialById(db.db, credentialId);
    if (!row || !sameOwnerScope(row, owner)) {
      return { ok: false, error: `credential ${credentialId} not found` };
    }
    try {
      const plain = keyRing.open(row.data as Sealed, credentialSealContext(row.id));
      const credential = parseCredentialData(row.type as CredentialData["type"], JSON.parse(plain));
      return { ok: true, credential, sealed: row.data };
    } catch {
      // Never the value or the parser's message: it could quote the data.
      return { ok: false, error: `credential ${credentialId} cannot be opened` };
    }
  };
}
