import { type Database, type MailStatus, recordMail } from "@hookflow/db";
import { describeZodError, newPrefixedId } from "@hookflow/domain";
import type { Logger } from "@hookflow/observability";
import type { Transporter } from "nodemailer";
import { recipientCapProblem } from "./mail-limits.js";
import { MailMessage, type MailResult } from "./mail-message.js";
import type { MailQuota } from "./mail-quota.js";

export interface Mailer {
  /** `smtp` when an SMTP server is configured, else `outbox` (mail is only stored). */
  readonly mode: "smtp" | "outbox";
  /**
   * Sends (or, without SMTP, stores) one mail and records it in `mail_outbox`, unless a limit
   * refuses it (then it is recorded as `refused`, with why). Never throws: a mail failure must
   * not fail the event that caused it; it is recorded and logged instead.
   */
  send: (message: MailMessage) => Promise<MailResult>;
  /** Closes pooled SMTP connections. */
  close: () => void;
}

export interface CreateMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://...:465`; absent -> local outbox only. */
  smtpUrl?: string | null;
  /** The From header, e.g. `Hookflow <hookflow@example.com>`. */
  from: string;
  db: Database;
  logger: Logger;
  /** MAIL_MAX_RECIPIENTS: a mail to more recipients is refused. */
  maxRecipients: number;
  /** MAIL_RATE_LIMIT_PER_HOUR per owner (`createRedisMailQuota`); null: no budget. */
  quota: MailQuota | null;
  now?: () => Date;
  /** Connection and greeting timeout (the socket may stay idle three times as long). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Long enough for any SMTP reply; the column is text but a log line should stay readable. */
const MAX_ERROR_CHARS = 1000;

/** How one mail ended, before it is recorded. */
type Outcome = { status: MailStatus; error: string | null };

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, MAX_ERROR_CHARS);
}

/**
 * The mail sender of approval gates and email actions. With `smtpUrl` it sends through the
 * operator's SMTP server (pooled connections) and records `sent` or `failed`; without one it
 * keeps every mail in the local outbox (`status: outbox`), where users read it through the API.
 * Either way the mail limits apply first: more than `maxRecipients` recipients, or more than its
 * owner's hourly budget, and the mail is recorded as `refused` with the reason, never sent.
 */
export function createMailer(options: CreateMailerOptions): Mailer {
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const smtpUrl = options.smtpUrl;
  // nodemailer is loaded with the first mail that goes out by SMTP: a process that never sends
  // one does not carry it (docs/decisions.md, "Loading dependencies").
  let transport: Promise<Transporter> | undefined;
  const smtpTransport = (url: string): Promise<Transporter> => {
    transport ??= import("nodemailer").then(({ createTransport }) =>
      createTransport({
        url,
        pool: true,
        maxConnections: 5,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs * 3,
      }),
    );
    return transport;
  };

  async function deliver(message: MailMessage): Promise<Outcome> {
    if (!smtpUrl) return { status: "outbox", error: null };
    try {
      await (await smtpTransport(smtpUrl)).sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
      return { status: "sent", error: null };
    } catch (error) {
      return { status: "failed", error: errorText(error) };
    }
  }

  /** Why the mail must not go out (a limit, or it is malformed), or null when it may. */
  async function screen(id: string, message: MailMessage): Promise<Outcome | null> {
    const parsed = MailMessage.safeParse(message);
    if (!parsed.success) {
      return { status: "failed", error: `invalid mail: ${describeZodError(parsed.error)}` };
    }
    const tooMany = recipientCapProblem(message.to.length, options.maxRecipients);
    if (tooMany) return { status: "refused", error: `too many recipients: ${tooMany}` };
    if (!options.quota) return null;
    try {
      const taken = await options.quota.take({
        owner: message.owner,
        mailId: id,
        count: message.to.length,
      });
      if (taken.ok) return null;
      const error =
        `rate limited: its owner may mail ${options.quota.perHour} recipients per hour ` +
        `(MAIL_RATE_LIMIT_PER_HOUR); room again in ${Math.ceil(taken.retryAfterMs / 1000)} s`;
      return { status: "refused", error };
    } catch (error) {
      // Not sent unchecked: failed, so its sender may try again later.
      return { status: "failed", error: `mail rate limit unavailable: ${errorText(error)}` };
    }
  }

  async function send(message: MailMessage): Promise<MailResult> {
    const createdAt = now();
    const id = newPrefixedId("mail", createdAt.getTime());
    const outcome = (await screen(id, message)) ?? (await deliver(message));
    const log = options.logger.child({
      mailId: id,
      sourceType: message.sourceType,
      sourceId: message.sourceId,
      eventId: message.eventId ?? undefined,
    });
    try {
      await recordMail(options.db, {
        id,
        sourceType: message.sourceType,
        sourceId: message.sourceId,
        eventId: message.eventId ?? null,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        status: outcome.status,
        error: outcome.error,
        createdAt,
        sentAt: outcome.status === "sent" ? now() : null,
      });
    } catch (error) {
      log.error({ err: error, status: outcome.status }, "could not record a mail");
    }
    if (outcome.status === "failed" || outcome.status === "refused") {
      log.warn({ status: outcome.status, error: outcome.error }, "mail not sent");
    } else log.info({ status: outcome.status, recipients: message.to.length }, "mail handled");
    return { id, ...outcome };
  }

  return {
    mode: smtpUrl ? "smtp" : "outbox",
    send,
    close: () => {
      void transport?.then(
        (opened) => opened.close(),
        () => {},
      );
    },
  };
}
