import type { GoogleCallResult, GoogleClient } from "./google-client.js";
import type { GoogleRequest } from "./google-http.js";
import { buildRawMessage } from "./mime.js";

/**
 * The Gmail operations of gmail-actions and of AI nodes' Gmail tools (docs/decisions.md, Gmail
 * actions), each one or two calls of the Gmail v1 REST API on the credential's mailbox
 * (`users/me`). `config` holds the operation's fields, rendered and checked by the caller.
 */
export type GmailConfig = Readonly<Record<string, unknown>>;

/** Gmail ids (messages, threads, drafts, labels) as they may appear in a URL path. */
const GMAIL_ID = /^[A-Za-z0-9_-]{1,200}$/;

type Built = { ok: true; value: string } | { ok: false; error: string };

function text(config: GmailConfig, field: string): string | undefined {
  const value = config[field];
  return typeof value === "string" ? value : undefined;
}

function idOf(config: GmailConfig, field: string): Built {
  const value = text(config, field)?.trim() ?? "";
  return GMAIL_ID.test(value)
    ? { ok: true, value }
    : { ok: false, error: `operationConfig.${field}: not a Gmail id` };
}

function listQuery(config: GmailConfig): string {
  const params = new URLSearchParams();
  const q = text(config, "query");
  if (q) params.set("q", q);
  const max = config.maxResults;
  if (typeof max === "number") params.set("maxResults", String(max));
  const labels = config.labelIds;
  if (Array.isArray(labels)) for (const label of labels) params.append("labelIds", String(label));
  const query = params.toString();
  return query ? `?${query}` : "";
}

function messageOf(config: GmailConfig, extra: { inReplyTo?: string; references?: string } = {}) {
  return buildRawMessage({
    to: text(config, "to"),
    cc: text(config, "cc"),
    bcc: text(config, "bcc"),
    subject: text(config, "subject") ?? "",
    body: text(config, "body") ?? "",
    html: config.html === true,
    ...extra,
  });
}

function header(message: unknown, name: string): string | undefined {
  const headers = (
    message as { payload?: { headers?: Array<{ name?: unknown; value?: unknown }> } }
  )?.payload?.headers;
  const found = headers?.find(
    (h) => typeof h.name === "string" && h.name.toLowerCase() === name.toLowerCase(),
  );
  return typeof found?.value === "string" ? found.value : undefined;
}

const failed = (error: string): GoogleCallResult => ({
  ok: false,
  status: 0,
  error,
  text: "",
  permanent: true,
});

export async function runGmailOperation(
  client: GoogleClient,
  input: { credentialId: string; baseUrl: string; operation: string; config: GmailConfig },
): Promise<GoogleCallResult> {
  const { config } = input;
  const users = `${input.baseUrl}/gmail/v1/users/me`;
  const call = (req: GoogleRequest) => client.call(input.credentialId, req);
  const modify = async (add: string[], remove: string[]) => {
    const id = idOf(config, "messageId");
    if (!id.ok) return failed(id.error);
    return call({
      method: "POST",
      url: `${users}/messages/${id.value}/modify`,
      json: { addLabelIds: add, removeLabelIds: remove },
    });
  };
  const labels = () => (Array.isArray(config.labelIds) ? config.labelIds.map(String) : []);
  switch (input.operation) {
    case "send":
      return call({
        method: "POST",
        url: `${users}/messages/send`,
        json: { raw: messageOf(config) },
      });
    case "create_draft":
      return call({
        method: "POST",
        url: `${users}/drafts`,
        json: { message: { raw: messageOf(config) } },
      });
    case "send_draft": {
      const id = idOf(config, "draftId");
      if (!id.ok) return failed(id.error);
      return call({ method: "POST", url: `${users}/drafts/send`, json: { id: id.value } });
    }
    case "reply":
      return reply(call, users, config);
    case "forward":
      return forward(call, users, config);
    case "get_message": {
      const id = idOf(config, "messageId");
      if (!id.ok) return failed(id.error);
      const format = text(config, "format") ?? "full";
      return call({
        method: "GET",
        url: `${users}/messages/${id.value}?format=${encodeURIComponent(format)}`,
      });
    }
    case "list_messages":
      return call({ method: "GET", url: `${users}/messages${listQuery(config)}` });
    case "get_thread": {
      const id = idOf(config, "threadId");
      if (!id.ok) return failed(id.error);
      const format = text(config, "format") ?? "full";
      return call({
        method: "GET",
        url: `${users}/threads/${id.value}?format=${encodeURIComponent(format)}`,
      });
    }
    case "list_threads":
      return call({ method: "GET", url: `${users}/threads${listQuery(config)}` });
    case "add_labels":
      return modify(labels(), []);
    case "remove_labels":
      return modify([], labels());
    case "mark_read":
      return modify([], ["UNREAD"]);
    case "mark_unread":
      return modify(["UNREAD"], []);
    case "archive":
      return modify([], ["INBOX"]);
    case "trash": {
      const id = idOf(config, "messageId");
      if (!id.ok) return failed(id.error);
      return call({ method: "POST", url: `${users}/messages/${id.value}/trash` });
    }
    case "list_labels":
      return call({ method: "GET", url: `${users}/labels` });
    case "create_label":
      return call({
        method: "POST",
        url: `${users}/labels`,
        json: {
          name: text(config, "name") ?? "",
          labelListVisibility: "labelShow",
          messageListVisibility: "show",
        },
      });
    default:
      return failed(`unknown Gmail operation ${input.operation}`);
  }
}

type Call = (req: GoogleRequest) => Promise<GoogleCallResult>;

/** Reads the original's headers, then sends in its thread (to its sender unless `to` is set). */
async function reply(call: Call, users: string, config: GmailConfig): Promise<GoogleCallResult> {
  const id = idOf(config, "messageId");
  if (!id.ok) return failed(id.error);
  const original = await call({
    method: "GET",
    url: `${users}/messages/${id.value}?format=metadata&metadataHeaders=Subject&metadataHeaders=From&metadataHeaders=Message-ID&metadataHeaders=References`,
  });
  if (!original.ok) return original;
  const message = original.json as { threadId?: unknown } | null;
  const subject = header(message, "Subject") ?? "";
  const messageIdHeader = header(message, "Message-ID");
  const references = [header(message, "References"), messageIdHeader].filter(Boolean).join(" ");
  const raw = messageOf(
    {
      ...config,
      to: text(config, "to") ?? header(message, "From") ?? "",
      subject: /^re:/i.test(subject) ? subject : `Re: ${subject}`,
    },
    { inReplyTo: messageIdHeader, references: references || undefined },
  );
  const threadId = typeof message?.threadId === "string" ? message.threadId : undefined;
  return call({
    method: "POST",
    url: `${users}/messages/send`,
    json: threadId ? { raw, threadId } : { raw },
  });
}

/** Reads the original whole (`format=raw`), then sends it attached to `to` with `body`. */
async function forward(call: Call, users: string, config: GmailConfig): Promise<GoogleCallResult> {
  const id = idOf(config, "messageId");
  if (!id.ok) return failed(id.error);
  const original = await call({ method: "GET", url: `${users}/messages/${id.value}?format=raw` });
  if (!original.ok) return original;
  const raw = (original.json as { raw?: unknown } | null)?.raw;
  if (typeof raw !== "string") return failed("the original message has no raw form");
  const bytes = Buffer.from(raw, "base64url");
  const subjectLine = /^Subject: (.*)$/im.exec(bytes.toString("utf8"))?.[1] ?? "";
  const forwarded = buildRawMessage({
    to: text(config, "to"),
    subject: `Fwd: ${subjectLine.trim()}`,
    body: text(config, "body") ?? "",
    attachRfc822: bytes,
  });
  return call({ method: "POST", url: `${users}/messages/send`, json: { raw: forwarded } });
}
