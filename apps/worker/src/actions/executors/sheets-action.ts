import { runSheetsOperation } from "@hookflow/google";
import { type ActionExecutor, type ActionResult, permanentFailure } from "../action-types.js";
import { fromGoogleCall } from "./google-result.js";

/**
 * `sheets-actions`: each of `columns` rendered (Handlebars) into one row, appended after the
 * sheet's table (`append_row`) or written from `cell` (`update_cell`), with the credential's
 * OAuth token against GOOGLE_API_BASE_URL.
 */
export const sheetsActionExecutor: ActionExecutor<"sheetsAction"> = {
  run: async ({ action, context, ports }): Promise<ActionResult> => {
    const ids = {
      eventId: context.event.id,
      webhookId: context.webhook.id,
      nodeId: action.id,
      nodeName: action.name,
    };
    const values: string[] = [];
    for (const [index, template] of action.config.columns.entries()) {
      const rendered = await ports.render.text(template, context, ids);
      if (!rendered.ok) return permanentFailure(`columns.${index}: ${rendered.error}`);
      values.push(rendered.text);
    }
    const result = await runSheetsOperation(ports.google(action), {
      credentialId: action.config.credentialId,
      baseUrl: ports.googleBaseUrls.sheets,
      spreadsheetId: action.config.spreadsheetId,
      sheetName: action.config.sheetName,
      operation: action.config.operation,
      ...(action.config.cell === undefined ? {} : { cell: action.config.cell }),
      values,
    });
    return fromGoogleCall(result);
  },
};
