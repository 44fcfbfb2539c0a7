import type { ActionFamilyKey } from "@hookflow/pipeline";
import type { ActionExecutor } from "../action-types.js";
import { emailActionExecutor } from "./email-action.js";
import { gmailActionExecutor } from "./gmail-action.js";
import { httpActionExecutor } from "./http-action.js";
import { mongoActionExecutor } from "./mongo-action.js";
import { notificationActionExecutor } from "./notification-action.js";
import { sheetsActionExecutor } from "./sheets-action.js";

/** One executor per action family: adding one is its schema (registry) and an entry here. */
export const ACTION_EXECUTORS: { [F in ActionFamilyKey]: ActionExecutor<F> } = {
  httpAction: httpActionExecutor,
  emailAction: emailActionExecutor,
  notificationAction: notificationActionExecutor,
  sheetsAction: sheetsActionExecutor,
  gmailAction: gmailActionExecutor,
  mongoAction: mongoActionExecutor,
};
