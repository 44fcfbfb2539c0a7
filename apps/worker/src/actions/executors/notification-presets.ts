import type { ActionTemplateContext } from "../action-types.js";

/**
 * The message bodies of notification actions' presets (docs/decisions.md, Notifications): Slack
 * incoming webhooks take `{text, blocks}`, Discord webhooks `{content, embeds}`. Pure; values
 * from the event are escaped for the platform (Slack's `&`, `<`, `>`; Discord mentions are
 * switched off), and the payload shown is cut to fit the platforms' limits.
 */
export type Preset = "default" | "detailed" | "minimal";
export type Outcome = "success" | "failure";

const PAYLOAD_PREVIEW_CHARS = 1_500;

function headline(context: ActionTemplateContext, outcome: Outcome): string {
  const verb = outcome === "success" ? "delivered" : "failed";
  const status = context.response.status > 0 ? ` (HTTP ${context.response.status})` : "";
  return `${context.webhook.name}: event ${context.event.id} ${verb}${status}`;
}

function payloadPreview(payload: unknown): string {
  const text = JSON.stringify(payload, null, 2) ?? "null";
  return text.length > PAYLOAD_PREVIEW_CHARS ? `${text.slice(0, PAYLOAD_PREVIEW_CHARS)}…` : text;
}

/** Slack's mrkdwn control characters. */
function slackEscape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** A code block that the payload cannot close early. */
function codeBlock(text: string): string {
  return `\`\`\`${text.replaceAll("```", "`\u200b``")}\`\`\``;
}

export function slackMessage(
  preset: Preset,
  context: ActionTemplateContext,
  outcome: Outcome,
): { text: string; blocks: unknown[] } {
  const mark = outcome === "success" ? ":white_check_mark:" : ":x:";
  const text = slackEscape(headline(context, outcome));
  switch (preset) {
    case "minimal":
      return {
        text,
        blocks: [{ type: "context", elements: [{ type: "mrkdwn", text: `${mark} ${text}` }] }],
      };
    case "default":
      return {
        text,
        blocks: [{ type: "section", text: { type: "mrkdwn", text: `${mark} *${text}*` } }],
      };
    case "detailed":
      return {
        text,
        blocks: [
          { type: "section", text: { type: "mrkdwn", text: `${mark} *${text}*` } },
          {
            type: "section",
            fields: [
              { type: "mrkdwn", text: `*Webhook*\n${slackEscape(context.webhook.name)}` },
              { type: "mrkdwn", text: `*Event*\n${context.event.id}` },
              { type: "mrkdwn", text: `*Outcome*\n${outcome}` },
              { type: "mrkdwn", text: `*HTTP status*\n${context.response.status}` },
            ],
          },
          {
            type: "section",
            text: { type: "mrkdwn", text: slackEscape(codeBlock(payloadPreview(context.payload))) },
          },
        ],
      };
  }
}

const GREEN = 0x2eb67d;
const RED = 0xe01e5a;

export function discordMessage(
  preset: Preset,
  context: ActionTemplateContext,
  outcome: Outcome,
): { content: string; embeds: unknown[]; allowed_mentions: { parse: never[] } } {
  const content = headline(context, outcome);
  const color = outcome === "success" ? GREEN : RED;
  const base = { content, allowed_mentions: { parse: [] as never[] } };
  switch (preset) {
    case "minimal":
      return { ...base, embeds: [] };
    case "default":
      return {
        ...base,
        embeds: [
          {
            title: context.webhook.name,
            description: `Event ${context.event.id} ${outcome === "success" ? "delivered" : "failed"}`,
            color,
          },
        ],
      };
    case "detailed":
      return {
        ...base,
        embeds: [
          {
            title: context.webhook.name,
            description: codeBlock(payloadPreview(context.payload)),
            color,
            fields: [
              { name: "Event", value: context.event.id, inline: true },
              { name: "Outcome", value: outcome, inline: true },
              { name: "HTTP status", value: String(context.response.status), inline: true },
            ],
          },
        ],
      };
  }
}
