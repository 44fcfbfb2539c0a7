import {
  type ActionExecutor,
  type ActionResult,
  isRetryableStatus,
  permanentFailure,
} from "../action-types.js";
import { discordMessage, type Outcome, slackMessage } from "./notification-presets.js";

/**
 * `notification-actions`: a Slack or Discord message posted to the incoming-webhook URL, built by
 * the preset or, for `custom`, from the JSON template; through the delivery's HTTP client and
 * its private-target guard.
 */
export const notificationActionExecutor: ActionExecutor<"notificationAction"> = {
  run: async (input): Promise<ActionResult> => {
    const { config } = input.action;
    const outcome: Outcome = input.trigger;
    let body: string;
    if (config.templatePreset === "custom") {
      const rendered = input.ports.render.json(config.customTemplate ?? "{}", input.context);
      if (!rendered.ok) return permanentFailure(rendered.error);
      body = rendered.text;
    } else {
      const message =
        config.platform === "slack"
          ? slackMessage(config.templatePreset, input.context, outcome)
          : discordMessage(config.templatePreset, input.context, outcome);
      body = JSON.stringify(message);
    }
    const result = await input.ports.http.send({
      url: config.webhookUrl,
      headers: { "content-type": "application/json", "user-agent": "Hookflow-Action/1" },
      body,
    });
    if (result.refused) return permanentFailure(result.error ?? "target refused");
    if (result.statusCode >= 200 && result.statusCode < 300) {
      return { ok: true, statusCode: result.statusCode, response: result.responseBody };
    }
    return {
      ok: false,
      error: result.error ?? `HTTP ${result.statusCode}`,
      retryable: isRetryableStatus(result.statusCode),
      statusCode: result.statusCode,
      response: result.responseBody,
    };
  },
};
