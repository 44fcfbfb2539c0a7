import { compileJsonTemplate, JSON_TEMPLATE_MAX_CHARS } from "@hookflow/domain";
import { z } from "zod";

/**
 * Config of each post-delivery action family (docs/decisions.md, Post-delivery actions). Every
 * action is linked by `inputNodes` (required) to webhooks or nodes of their graph, fires after
 * the event's delivery settles according to `triggerOn`, and can be switched off (`isActive`).
 * Text fields are Handlebars templates over `{payload, response: {status, body}, event: {id},
 * webhook: {name}}`; JSON fields follow the JSON template rule.
 */

export const TRIGGER_ON = ["success", "failure", "always"] as const;

/** Actions one webhook or node may feed (a write past it is 400). */
export const MAX_ACTIONS_PER_INPUT = 20;
/** Actions one event fires at most (the first by creation; the rest are skipped and logged). */
export const MAX_ACTIONS_PER_EVENT = 20;
export type TriggerOn = (typeof TRIGGER_ON)[number];

const TEXT_TEMPLATE_MAX = 64 * 1024;
const id = () => z.string().trim().min(1).max(100);

/** A Handlebars template (rendered in the transform sandbox, with its limits). */
const TextTemplate = (max: number) => z.string().min(1).max(max);

/** A JSON template: valid JSON whose string values may hold `{{path}}` placeholders. */
export const JsonTemplateSource = z
  .string()
  .min(1)
  .max(JSON_TEMPLATE_MAX_CHARS)
  .superRefine((source, ctx) => {
    const compiled = compileJsonTemplate(source);
    if (!compiled.ok)
      ctx.addIssue({ code: "custom", message: `the JSON template ${compiled.reason}` });
  });

/** An absolute http(s) URL whose host part is literal; `{{path}}` may appear after it. */
const TemplatedUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .regex(/^https?:\/\/[^/{}\s]+(\/|$|\?)/i, "an absolute http(s) URL whose host is not templated");

const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, "a header name");
/** Headers the HTTP client sets itself; a user value would break the request framing. */
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection"]);

const Headers = z.record(HeaderName, z.string().max(4096)).superRefine((headers, ctx) => {
  const names = Object.keys(headers);
  if (names.length > 30) ctx.addIssue({ code: "custom", message: "at most 30 headers" });
  for (const name of names) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) {
      ctx.addIssue({ code: "custom", message: `${name} is set by Hookflow`, path: [name] });
    }
  }
});

const Common = { triggerOn: z.enum(TRIGGER_ON), isActive: z.boolean() };

export const HttpActionConfig = z.object({
  url: TemplatedUrl,
  method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
  headers: Headers,
  body: z
    .string()
    .max(TEXT_TEMPLATE_MAX)
    .optional()
    .meta({
      description:
        "A body that is valid JSON is a JSON template (sent as application/json); any other " +
        "body is a Handlebars text template (sent as text/plain unless headers say otherwise).",
    }),
  credentialId: id()
    .optional()
    .meta({ description: "A bearer or basic credential sent as Authorization" }),
  ...Common,
});
export type HttpActionConfig = z.infer<typeof HttpActionConfig>;

export const EmailActionConfig = z.object({
  to: TextTemplate(2000).meta({
    description:
      "Comma-separated addresses, Handlebars; at most MAIL_MAX_RECIPIENTS after rendering",
  }),
  subject: TextTemplate(1000).meta({ description: "Handlebars; one line, cut at 200 characters" }),
  body: TextTemplate(TEXT_TEMPLATE_MAX).meta({
    description: "HTML, Handlebars ({{x}} is HTML-escaped, {{{x}}} is not)",
  }),
  ...Common,
});
export type EmailActionConfig = z.infer<typeof EmailActionConfig>;

export const NOTIFICATION_PRESETS = ["default", "detailed", "minimal", "custom"] as const;

export const NotificationActionConfig = z
  .object({
    platform: z.enum(["slack", "discord"]),
    webhookUrl: z.url({ protocol: /^https?$/ }).max(2048),
    templatePreset: z.enum(NOTIFICATION_PRESETS),
    customTemplate: JsonTemplateSource.optional().meta({
      description: "The message body as a JSON template; required with templatePreset custom",
    }),
    ...Common,
  })
  .superRefine((config, ctx) => {
    if (config.templatePreset === "custom" && config.customTemplate === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["customTemplate"],
        message: "required when templatePreset is custom",
      });
    }
  });
export type NotificationActionConfig = z.infer<typeof NotificationActionConfig>;

export const SheetsActionConfig = z
  .object({
    credentialId: id().meta({ description: "A google_oauth credential" }),
    spreadsheetId: z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "a spreadsheet id"),
    sheetName: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^'!]+$/, "a sheet name without ' or !"),
    operation: z.enum(["append_row", "update_cell"]),
    columns: z.array(z.string().max(4096)).min(1).max(100).meta({
      description: "Cell values, each a Handlebars template; append_row writes them as one row",
    }),
    cell: z
      .string()
      .regex(/^[A-Z]{1,3}[1-9][0-9]{0,6}$/, "an A1 cell such as B2")
      .optional()
      .meta({ description: "The cell update_cell writes (the first column value)" }),
    ...Common,
  })
  .superRefine((config, ctx) => {
    if (config.operation === "update_cell" && config.cell === undefined) {
      ctx.addIssue({ code: "custom", path: ["cell"], message: "required for update_cell" });
    }
  });
export type SheetsActionConfig = z.infer<typeof SheetsActionConfig>;

/**
 * The Gmail operations (docs/decisions.md, Gmail actions): what a mailbox user needs, each one
 * call (or two) of the Gmail v1 REST API.
 */
export const GMAIL_OPERATIONS = [
  "send",
  "reply",
  "forward",
  "create_draft",
  "send_draft",
  "get_message",
  "list_messages",
  "get_thread",
  "list_threads",
  "add_labels",
  "remove_labels",
  "list_labels",
  "create_label",
  "mark_read",
  "mark_unread",
  "archive",
  "trash",
] as const;
export type GmailOperation = (typeof GMAIL_OPERATIONS)[number];

const Template = z.string().max(TEXT_TEMPLATE_MAX);
const Required = z.string().min(1).max(TEXT_TEMPLATE_MAX);
const LabelIds = z
  .array(z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, "a Gmail label id"))
  .min(1)
  .max(50);
const Message = z.object({ messageId: Required });
const List = z.object({
  query: Template.optional(),
  maxResults: z.number().int().min(1).max(500).optional(),
  labelIds: LabelIds.optional(),
});
const Compose = z.object({
  to: Required,
  cc: Template.optional(),
  bcc: Template.optional(),
  subject: Template,
  body: Template,
  html: z.boolean().optional(),
});
const Format = z.enum(["full", "metadata", "minimal", "raw"]).optional();

/**
 * The fields of each Gmail operation in `operationConfig` (string fields are Handlebars
 * templates). These also describe the operations as tools to AI nodes.
 */
export const GMAIL_OPERATION_CONFIGS = {
  send: Compose,
  reply: z.object({
    messageId: Required,
    body: Template,
    to: Template.optional(),
    html: z.boolean().optional(),
  }),
  forward: z.object({ messageId: Required, to: Required, body: Template.optional() }),
  create_draft: Compose,
  send_draft: z.object({ draftId: Required }),
  get_message: Message.extend({ format: Format }),
  list_messages: List,
  get_thread: z.object({ threadId: Required, format: Format }),
  list_threads: List,
  add_labels: Message.extend({ labelIds: LabelIds }),
  remove_labels: Message.extend({ labelIds: LabelIds }),
  list_labels: z.object({}),
  create_label: z.object({ name: Required }),
  mark_read: Message,
  mark_unread: Message,
  archive: Message,
  trash: Message,
} as const satisfies Record<GmailOperation, z.ZodObject>;

/** The operations AI nodes get as tools: every one but `trash` (a model never deletes mail). */
export const GMAIL_AI_TOOLS = GMAIL_OPERATIONS.filter((operation) => operation !== "trash");

export const GmailActionConfig = z
  .object({
    credentialId: id().meta({ description: "A google_oauth credential (the connected account)" }),
    operation: z
      .enum(GMAIL_OPERATIONS)
      .meta({ description: `One of ${GMAIL_OPERATIONS.join(", ")}` }),
    operationConfig: z
      .record(
        z.string().max(100),
        z.union([Template, z.array(z.string().max(500)).max(50), z.number(), z.boolean()]),
      )
      .meta({
        description:
          "The operation's fields (string fields are Handlebars templates): send and " +
          "create_draft {to, cc?, bcc?, subject, body, html?}; reply {messageId, body, to?, " +
          "html?}; forward {messageId, to, body?}; send_draft {draftId}; get_message " +
          "{messageId, format?}; get_thread {threadId, format?}; list_messages and list_threads " +
          "{query?, maxResults?, labelIds?}; add_labels and remove_labels {messageId, labelIds}; " +
          "mark_read, mark_unread, archive, trash {messageId}; list_labels {}; create_label {name}",
      }),
    aiEnabled: z.boolean().meta({
      description: `Offers the operations but trash to AI nodes as tools (${GMAIL_AI_TOOLS.length})`,
    }),
    triggerOn: z.enum(["success", "always"]),
    isActive: z.boolean(),
  })
  .superRefine((config, ctx) => {
    const parsed = GMAIL_OPERATION_CONFIGS[config.operation]
      .strict()
      .safeParse(config.operationConfig);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({
        code: "custom",
        path: ["operationConfig", ...issue.path.map(String)],
        message: issue.message,
      });
    }
  });
export type GmailActionConfig = z.infer<typeof GmailActionConfig>;

export const MongoActionConfig = z
  .object({
    credentialId: id().meta({ description: "A mongodb credential holding the connectionUri" }),
    database: z.string().regex(/^[^/\\. "$\0]{1,63}$/, "a database name"),
    collection: z.string().regex(/^(?!system\.)[^$\0]{1,120}$/, "a collection name"),
    operation: z.enum(["insertOne", "updateOne", "replaceOne"]),
    document: JsonTemplateSource.meta({
      description: "The document (replaceOne, insertOne) or update (updateOne), a JSON template",
    }),
    filter: JsonTemplateSource.optional().meta({
      description: "JSON template; required for updateOne and replaceOne",
    }),
    ...Common,
  })
  .superRefine((config, ctx) => {
    if (config.operation !== "insertOne" && config.filter === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["filter"],
        message: `required for ${config.operation}`,
      });
    }
  });
export type MongoActionConfig = z.infer<typeof MongoActionConfig>;
