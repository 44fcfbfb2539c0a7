import { ValidationError } from "@hookflow/domain";
import { recipientCapProblem } from "@hookflow/mail";
import { type FamilyConfig, type FamilyKey, mailRecipientsOf } from "@hookflow/pipeline";

/**
 * Refuses a node whose recipient lists (an approval gate's `notifyEmails`) are longer than
 * MAIL_MAX_RECIPIENTS: 400 naming the field. The mailer enforces the same cap when it sends, so
 * a node stored under a higher cap cannot mail more either.
 */
export function checkMailRecipients<F extends FamilyKey>(
  key: F,
  config: FamilyConfig<F>,
  maxRecipients: number,
): void {
  for (const { field, addresses } of mailRecipientsOf(key, config)) {
    const problem = recipientCapProblem(addresses.length, maxRecipients);
    if (problem) throw new ValidationError(`${field}: ${problem}`);
  }
}
