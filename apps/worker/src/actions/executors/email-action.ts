import { escapeHtml, mailOwnerOf, mailSubject } from "@hookflow/mail";
import { z } from "zod";
import {
  type ActionExecutor,
  type ActionResult,
  type ActionTemplateContext,
  permanentFailure,
} from "../action-types.js";

const Address = z.email().max(320);

/** The context with every string HTML-escaped: values rendered into the HTML body are text. */
function htmlEscapedContext(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return escapeHtml(value);
  if (depth > 1000 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => htmlEscapedContext(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = htmlEscapedContext(item, depth + 1);
  return out;
}

/** The text part: the rendered HTML without tags (linear: one pass of a non-nested pattern). */
function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/h[1-6]|\/li|\/tr)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&")
    .trim();
}

/** `to` as rendered: addresses separated by commas or semicolons, each checked. */
function parseRecipients(text: string): { ok: true; to: string[] } | { ok: false; error: string } {
  const to = text
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (to.length === 0) return { ok: false, error: "to: no recipient after rendering" };
  for (const address of to) {
    if (!Address.safeParse(address).success) {
      return { ok: false, error: `to: not an email address: ${address.slice(0, 320)}` };
    }
  }
  return { ok: true, to: [...new Set(to)] };
}

/**
 * `email-actions`: one mail per event through the worker's mailer (the operator's SMTP server, or
 * the local outbox without one), with the mail limits of every Hookflow mail (recipients per
 * mail, recipients per owner and hour). `to` and the subject are Handlebars text (the subject on
 * one line, cut at 200 characters); the body is HTML whose interpolated values are escaped.
 */
export const emailActionExecutor: ActionExecutor<"emailAction"> = {
  run: async (input): Promise<ActionResult> => {
    const { action, context, ports } = input;
    const ids = {
      eventId: context.event.id,
      webhookId: context.webhook.id,
      nodeId: action.id,
      nodeName: action.name,
    };
    const to = await ports.render.text(action.config.to, context, ids);
    if (!to.ok) return permanentFailure(`to: ${to.error}`);
    const recipients = parseRecipients(to.text);
    if (!recipients.ok) return permanentFailure(recipients.error);
    const subject = await ports.render.text(action.config.subject, context, ids);
    if (!subject.ok) return permanentFailure(`subject: ${subject.error}`);
    const escaped = htmlEscapedContext(context) as ActionTemplateContext;
    const html = await ports.render.text(action.config.body, escaped, ids);
    if (!html.ok) return permanentFailure(`body: ${html.error}`);
    const result = await ports.mailer.send({
      sourceType: "emailAction",
      sourceId: action.id,
      owner: mailOwnerOf(action),
      eventId: context.event.id,
      to: recipients.to,
      subject: mailSubject(subject.text),
      html: html.text,
      text: htmlToText(html.text),
    });
    switch (result.status) {
      case "sent":
      case "outbox":
        return { ok: true, response: `${result.status} ${result.id}` };
      case "refused":
        return permanentFailure(result.error ?? "refused");
      case "failed":
        return { ok: false, retryable: true, error: result.error ?? "mail failed" };
    }
  },
};
