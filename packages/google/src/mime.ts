/**
 * RFC 2822 messages for Gmail's `raw` fields, built from user text: header values are put on one
 * line (no CR, LF or other control character survives, so no header can be added), non-ASCII
 * header text is RFC 2047 encoded, bodies are base64.
 */

/** One header line's value: every run of control characters becomes a space. */
export function headerValue(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();
}

function encodedWord(value: string): string {
  const line = headerValue(value);
  if (/^[\u0020-\u007e]*$/.test(line)) return line;
  return `=?UTF-8?B?${Buffer.from(line, "utf8").toString("base64")}?=`;
}

function base64Lines(data: Buffer): string {
  return (data.toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");
}

export interface MailParts {
  to?: string;
  cc?: string;
  bcc?: string;
  subject: string;
  body: string;
  html?: boolean;
  inReplyTo?: string;
  references?: string;
  /** An original message attached whole (a forward), as its RFC 2822 bytes. */
  attachRfc822?: Buffer;
}

function headers(parts: MailParts): string[] {
  const lines: string[] = [];
  const add = (name: string, value: string | undefined, encode = false) => {
    if (value === undefined || headerValue(value) === "") return;
    lines.push(`${name}: ${encode ? encodedWord(value) : headerValue(value)}`);
  };
  add("To", parts.to);
  add("Cc", parts.cc);
  add("Bcc", parts.bcc);
  add("Subject", parts.subject, true);
  add("In-Reply-To", parts.inReplyTo);
  add("References", parts.references);
  lines.push("MIME-Version: 1.0");
  return lines;
}

function bodyPart(parts: MailParts): string {
  const type = parts.html ? "text/html" : "text/plain";
  return [
    `Content-Type: ${type}; charset="UTF-8"`,
    "Content-Transfer-Encoding: base64",
    "",
    base64Lines(Buffer.from(parts.body, "utf8")),
  ].join("\r\n");
}

/** The message as Gmail's `raw` field wants it: base64url of its bytes. */
export function buildRawMessage(parts: MailParts): string {
  let text: string;
  if (parts.attachRfc822) {
    const boundary = `hookflow-${Buffer.from(parts.subject).toString("hex").slice(0, 16)}-${parts.attachRfc822.length}`;
    text = [
      ...headers(parts),
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      bodyPart(parts),
      `--${boundary}`,
      "Content-Type: message/rfc822",
      'Content-Disposition: attachment; filename="forwarded.eml"',
      "",
      parts.attachRfc822.toString("utf8"),
      `--${boundary}--`,
      "",
    ].join("\r\n");
  } else {
    text = [...headers(parts), bodyPart(parts)].join("\r\n");
  }
  return Buffer.from(text, "utf8").toString("base64url");
}
