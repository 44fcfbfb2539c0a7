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
  await checkInternalCallConsent(db, link, "webhookId", config.webhookId);
}

/** The same rule for an AI node's tool webhooks (`toolWebhookIds.<i>`). */
export async function checkToolConsent(
  db: DbExecutor,
  node: OwnerColumns,
  config: FamilyConfig<"aiNode">,
): Promise<void> {
  for (const [i, webhookId] of config.toolWebhookIds.entries()) {
    await checkInternalCallConsent(db, node, `toolWebhookIds.${i}`, webhookId);
  }
}

async function checkInternalCallConsent(
  db: DbExecutor,
  caller: OwnerColumns,
  field: string,
  webhookId: string,
): Promise<void> {
  const target = await findWebhookConsent(db, webhookId);
  if (!target) throw new ValidationError(`${field}: Unknown webhook ${webhookId}`);
  if (!sameOwnerScope(target, caller)) {
    throw new ForbiddenError(
      `${field}: webhook ${webhookId} is not of this node's organization or personal space; internal calls stay inside one`,
    );
  }
  if (!target.acceptsInternalCalls) {
    throw new ForbiddenError(
      `${field}: webhook ${webhookId} does not accept internal calls (set its acceptsInternalCalls to allow flow links and AI tools)`,
    );
  }
}
