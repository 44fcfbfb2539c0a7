import { runGmailOperation } from "@hookflow/google";
import { GMAIL_OPERATION_CONFIGS } from "@hookflow/pipeline";
import { type ActionExecutor, type ActionResult, permanentFailure } from "../action-types.js";
import { fromGoogleCall } from "./google-result.js";

/**
 * `gmail-actions`: the operation's string fields rendered (Handlebars), checked again against
 * the operation's schema, then the Gmail v1 REST calls on the credential's mailbox.
 */
export const gmailActionExecutor: ActionExecutor<"gmailAction"> = {
  run: async ({ action, context, ports }): Promise<ActionResult> => {
    const ids = {
      eventId: context.event.id,
      webhookId: context.webhook.id,
      nodeId: action.id,
      nodeName: action.name,
    };
    const rendered: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(action.config.operationConfig)) {
      if (typeof value !== "string") {
        rendered[field] = value;
        continue;
      }
      const text = await ports.render.text(value, context, ids);
      if (!text.ok) return permanentFailure(`operationConfig.${field}: ${text.error}`);
      rendered[field] = text.text;
    }
    const checked = GMAIL_OPERATION_CONFIGS[action.config.operation].safeParse(rendered);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return permanentFailure(
        `operationConfig.${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`,
      );
    }
    const result = await runGmailOperation(ports.google(action), {
      credentialId: action.config.credentialId,
      baseUrl: ports.googleBaseUrls.gmail,
      operation: action.config.operation,
      config: checked.data as Record<string, unknown>,
    });
    return fromGoogleCall(result);
  },
};
