import { type DbExecutor, findWebhookConsent } from "@hookflow/db";
import {
  ForbiddenError,
  type OwnerColumns,
  sameOwnerScope,
  ValidationError,
} from "@hookflow/domain";
import type { FamilyConfig } from "@hookflow/pipeline";

/**
 * A flow link may only run the pipeline of a webhook of its own organization or personal space
 * that consents to internal calls (docs/decisions.md, Flow links): 403 otherwise, checked before
 * the generic reference rules (a 400 for an unknown id). Consent is checked again at run time.
 */
export async function checkLinkConsent(
  db: DbExecutor,
  link: OwnerColumns,
  config: FamilyConfig<"flowLink">,
): Promise<void> {
  const target = await findWebhookConsent(db, config.webhookId);
  if (!target) throw new ValidationError(`webhookId: Unknown webhook ${config.webhookId}`);
  if (!sameOwnerScope(target, link)) {
    throw new ForbiddenError(
      `webhookId: webhook ${config.webhookId} is not of this link's organization or personal space; a flow link stays inside one`,
    );
  }
  if (!target.acceptsInternalCalls) {
    throw new ForbiddenError(
      `webhookId: webhook ${config.webhookId} does not accept internal calls (set its acceptsInternalCalls to allow flow links and AI tools)`,
    );
  }
}
