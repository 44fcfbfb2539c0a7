import { findCredentialById } from "@hookflow/db";
import { AppError, ValidationError } from "@hookflow/domain";
import {
  createGoogleClient,
  createSealedGoogleCredentialStore,
  runGmailOperation,
} from "@hookflow/google";
import { assertVisible, requireScope } from "../access.js";
import type { Actor } from "../actor.js";
import type { ServiceContext } from "../context.js";

/** What calling Gmail needs: Google's endpoints and the outbound request timeout. */
export interface GmailContext extends ServiceContext {
  config: {
    google: { tokenUrl: string; gmailBaseUrl: string };
    deliveryTimeoutMs: number;
  };
}

/** A label of a connected Gmail account. */
export interface GmailLabel {
  id: string;
  name: string;
  /** `system` or `user`. */
  type: string | null;
}

/** Google's failure as the api's 503 in the error shape. */
class UpstreamError extends AppError {
  constructor(message: string) {
    super("unavailable", message);
  }
}

/**
 * The labels of the Gmail account of a visible google_oauth credential (400 for another type),
 * through Gmail's users.labels.list with the credential's token (refreshed if it expired). 503
 * when Google refuses or cannot be reached; the message gives Google's status, never a token.
 */
export async function listGmailLabels(
  ctx: GmailContext,
  actor: Actor,
  { credentialId }: { credentialId: string },
): Promise<GmailLabel[]> {
  requireScope(actor, "canvas:read");
  const row = assertVisible(actor, await findCredentialById(ctx.db.db, credentialId), "Credential");
  if (row.type !== "google_oauth") {
    throw new ValidationError(
      `credentialId: credential ${credentialId} is not a google_oauth credential`,
    );
  }
  const google = ctx.config.google;
  const client = createGoogleClient(
    createSealedGoogleCredentialStore({
      db: ctx.db,
      keyRing: ctx.keyRing,
      owner: row,
      now: ctx.now,
    }),
    { tokenUrl: google.tokenUrl, timeoutMs: ctx.config.deliveryTimeoutMs, now: ctx.now },
  );
  const result = await runGmailOperation(client, {
    credentialId,
    baseUrl: google.gmailBaseUrl,
    operation: "list_labels",
    config: {},
  });
  if (!result.ok) throw new UpstreamError(`Gmail answered: ${result.error}`);
  const labels = (result.json as { labels?: Array<Record<string, unknown>> } | null)?.labels ?? [];
  return labels.flatMap((label) =>
    typeof label.id === "string" && typeof label.name === "string"
      ? [
          {
            id: label.id,
            name: label.name,
            type: typeof label.type === "string" ? label.type : null,
          },
        ]
      : [],
  );
}
