import { z } from "@hono/zod-openapi";
import { CREDENTIAL_TYPES } from "@hookflow/domain";
import type { CredentialView } from "@hookflow/services";
import { errorResponsesOf } from "../../http/route-kit.js";

const CredentialName = z.string().trim().min(1).max(200);

const DataField = z.record(z.string(), z.unknown()).openapi({
  description:
    "What the credential holds, by type (never returned): google_oauth {accessToken, " +
    "refreshToken?, clientId?, clientSecret?, expiresAt?, scope?}; smtp {host, port (587), " +
    "secure (false), username?, password?, from?}; bearer {token}; basic {username, password}; " +
    "mongodb {connectionUri}. Sealed with AES-256-GCM under HOOKFLOW_ENCRYPTION_KEY.",
});

export const CreateCredentialInput = z
  .object({ name: CredentialName, type: z.enum(CREDENTIAL_TYPES), data: DataField })
  .openapi("CreateCredentialInput");

export const UpdateCredentialInput = z
  .object({ name: CredentialName.optional(), data: DataField.optional() })
  .openapi("UpdateCredentialInput");

export const CredentialResponse = z
  .object({
    id: z.string(),
    _id: z.string(),
    name: z.string(),
    type: z.enum(CREDENTIAL_TYPES),
    preview: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({
        description:
          "The non-secret part of the data: google_oauth {expiresAt, hasRefreshToken, scope}, " +
          "smtp {host, port, secure, username}, basic {username}, mongodb {connectionUri without " +
          "password or options}, bearer {}. null when the stored value cannot be opened.",
      }),
    ownerId: z.string(),
    organizationId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Credential");

export function credentialErrors(...codes: Array<400 | 401 | 403 | 404 | 409>) {
  return errorResponsesOf(
    {
      400: "Invalid request; the message names the field",
      401: "Missing, unknown or expired credential",
      403: "Credential of another owner, or a key without the scope",
      404: "No credential with this id",
      409: "A node still uses the credential (the message names it)",
    },
    codes,
  );
}

/** The answer for a credential: its view (never the data) with the wire's `_id` and dates. */
export function toCredentialResponse(view: CredentialView) {
  return {
    id: view.id,
    _id: view.id,
    name: view.name,
    type: view.type,
    preview: view.preview,
    ownerId: view.ownerId,
    organizationId: view.organizationId,
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}
