import { z } from "zod";

/** What a sender hands the mailer: one mail to one or more recipients. */
export const MailMessage = z.object({
  /** `approval` (an approval gate's request) or `emailAction` (a post-delivery email action). */
  sourceType: z.enum(["approval", "emailAction"]),
  /** The node that produced the mail; its outbox lists the mail. */
  sourceId: z.string().min(1),
  /** Whose budget the mail draws on (`mailOwnerOf`): the node's organization or user. */
  owner: z.string().min(1),
  eventId: z.string().min(1).nullish(),
  to: z.array(z.email().max(320)).min(1).max(50),
  subject: z
    .string()
    .max(998)
    .refine((value) => !/[\r\n]/.test(value), "must be one line"),
  html: z.string(),
  text: z.string(),
});
export type MailMessage = z.infer<typeof MailMessage>;

/**
 * How one send ended: kept in the local outbox, sent through SMTP, failed (with why: worth
 * another try), or refused by a limit (with why: never sent, and not worth another try).
 */
export interface MailResult {
  id: string;
  status: "outbox" | "sent" | "failed" | "refused";
  error: string | null;
}
