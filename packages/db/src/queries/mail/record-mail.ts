import type { Database } from "../../client.js";
import { mailOutbox } from "../../schema/index.js";

/** approval | emailAction: what produced the mail; `sourceId` is that node's id. */
export type MailSourceType = "approval" | "emailAction";

/**
 * `outbox`: kept locally (no SMTP server configured); `sent` or `failed` through SMTP;
 * `refused`: over a mail limit (recipients per mail, or the owner's hourly budget), never sent.
 */
export type MailStatus = "outbox" | "sent" | "failed" | "refused";

export interface MailRecordInput {
  id: string;
  sourceType: MailSourceType;
  sourceId: string;
  eventId: string | null;
  to: string[];
  subject: string;
  html: string;
  text: string;
  status: MailStatus;
  error: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/** Records one mail: the outbox copy, or the outcome of an SMTP send. */
export async function recordMail(db: Database, input: MailRecordInput): Promise<void> {
  await db.insert(mailOutbox).values(input);
}
