import { type DbHandle, findCredentialById, replaceCredentialData } from "@hookflow/db";
import {
  credentialSealContext,
  GoogleOAuthData,
  type KeyRing,
  type OwnerColumns,
  type Sealed,
  sameOwnerScope,
} from "@hookflow/domain";
import type { GoogleCredentialStore } from "./google-client.js";

/**
 * `google_oauth` credentials as stored (sealed by the key ring), for one owner scope: a
 * credential of another organization or personal space reads as not found, whatever id a node
 * names. Refreshed tokens are sealed and written only over the value that was read.
 */
export function createSealedGoogleCredentialStore(options: {
  db: DbHandle;
  keyRing: KeyRing;
  owner: OwnerColumns;
  now: () => Date;
}): GoogleCredentialStore {
  const { db, keyRing, owner } = options;
  return {
    load: async (credentialId) => {
      const row = await findCredentialById(db.db, credentialId);
      if (!row || !sameOwnerScope(row, owner)) {
        return { ok: false, error: `credential ${credentialId} not found` };
      }
      if (row.type !== "google_oauth") {
        return { ok: false, error: `credential ${credentialId} is not a google_oauth credential` };
      }
      try {
        const plain = keyRing.open(row.data as Sealed, credentialSealContext(row.id));
        return { ok: true, data: GoogleOAuthData.parse(JSON.parse(plain)), version: row.data };
      } catch {
        return { ok: false, error: `credential ${credentialId} cannot be opened` };
      }
    },
    save: async (credentialId, version, data) => {
      await replaceCredentialData(db.db, {
        id: credentialId,
        previous: version,
        data: keyRing.seal(JSON.stringify(data), credentialSealContext(credentialId)),
        now: options.now(),
      });
    },
  };
}
