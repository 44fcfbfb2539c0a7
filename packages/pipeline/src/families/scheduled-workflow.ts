import { z } from "zod";
import { CRON_EXPRESSION_MAX_LENGTH, cronProblem, isKnownTimeZone } from "./cron-schedule.js";

/**
 * Scheduled workflows (docs/decisions.md, Scheduled workflows): a cron schedule that either calls
 * a URL or injects an event into one of the owner's webhooks.
 */

export const SCHEDULED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Headers the HTTP client sets itself or that would change how the request is framed. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-authorization",
  "proxy-connection",
]);

export const SCHEDULED_BODY_MAX_LENGTH = 64 * 1024;
export const SCHEDULED_HEADERS_MAX = 50;
const HEADER_VALUE_MAX_LENGTH = 8 * 1024;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

const Headers = z
  .record(z.string(), z.string().max(HEADER_VALUE_MAX_LENGTH))
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > SCHEDULED_HEADERS_MAX) {
      ctx.addIssue({ code: "custom", message: `at most ${SCHEDULED_HEADERS_MAX} headers` });
    }
    for (const name of names) {
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({ code: "custom", path: [name], message: "not a valid header name" });
      } else if (RESERVED_HEADERS.has(name.toLowerCase())) {
        ctx.addIssue({ code: "custom", path: [name], message: "set by the HTTP client" });
      } else if (/[\r\n\0]/.test(headers[name] ?? "")) {
        ctx.addIssue({ code: "custom", path: [name], message: "a header value is one line" });
      }
    }
  })
  .meta({
    description:
      "Request headers of the url call (Host, Content-Length and the like are the client's)",
  });

const HttpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({
    description:
      "Called on every tick (http or https; private addresses refused unless ALLOW_PRIVATE_TARGETS)",
  });

export const ScheduledWorkflowConfig = z
  .object({
    cronExpression: z
      .string()
      .trim()
      .min(1)
      .max(CRON_EXPRESSION_MAX_LENGTH)
      .meta({ description: "5 fields (minute precision) or 6 (seconds first), croner syntax" }),
    timezone: z
      .string()
      .max(100)
      .refine(isKnownTimeZone, {
        message: "Unknown time zone (an IANA name such as Europe/Berlin)",
      })
      .meta({ description: "IANA time zone the expression is read in" }),
    url: HttpUrl.nullish(),
    webhookId: z.string().trim().min(1).max(100).nullish().meta({
      description: "Webhook of the same owner that receives `body` as an event on every tick",
    }),
    method: z.enum(SCHEDULED_METHODS),
    headers: Headers,
    body: z.string().max(SCHEDULED_BODY_MAX_LENGTH).optional().meta({
      description: "Request body (url) or event body (webhookId); JSON text for a JSON payload",
    }),
    isActive: z.boolean(),
  })
  .superRefine((config, ctx) => {
    // An unknown zone is already an issue of its own; the expression is judged in a known one.
    const zone = isKnownTimeZone(config.timezone) ? config.timezone : "UTC";
    const problem = cronProblem(config.cronExpression, zone);
    if (problem) ctx.addIssue({ code: "custom", path: ["cronExpression"], message: problem });
    if ((config.url == null) === (config.webhookId == null)) {
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message:
          "exactly one of url (an HTTP call) and webhookId (an event into a webhook) is needed; null clears one",
      });
    }
  });
export type ScheduledWorkflowConfig = z.infer<typeof ScheduledWorkflowConfig>;
