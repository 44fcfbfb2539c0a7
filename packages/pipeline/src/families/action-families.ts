import {
  EmailActionConfig,
  GmailActionConfig,
  HttpActionConfig,
  MongoActionConfig,
  NotificationActionConfig,
  SheetsActionConfig,
} from "./action-definitions.js";
import { action } from "./family-definition.js";

/** Post-delivery actions, fired after an event's delivery settles. */
export const ACTION_FAMILIES = {
  httpAction: action({
    nodeType: "httpAction",
    path: "http-actions",
    idPrefix: "hta",
    config: HttpActionConfig,
    defaults: { method: "POST", headers: {}, triggerOn: "success", isActive: true },
  }),
  emailAction: action({
    nodeType: "emailAction",
    path: "email-actions",
    idPrefix: "ema",
    config: EmailActionConfig,
    defaults: { triggerOn: "success", isActive: true },
  }),
  notificationAction: action({
    nodeType: "notificationAction",
    path: "notification-actions",
    idPrefix: "nta",
    config: NotificationActionConfig,
    defaults: { templatePreset: "default", triggerOn: "success", isActive: true },
  }),
  sheetsAction: action({
    nodeType: "sheetsAction",
    path: "sheets-actions",
    idPrefix: "sha",
    config: SheetsActionConfig,
    defaults: {
      sheetName: "Sheet1",
      operation: "append_row",
      triggerOn: "success",
      isActive: true,
    },
  }),
  gmailAction: action({
    nodeType: "gmailAction",
    path: "gmail-actions",
    idPrefix: "gma",
    config: GmailActionConfig,
    defaults: {
      operation: "send",
      operationConfig: {},
      aiEnabled: false,
      triggerOn: "success",
      isActive: true,
    },
  }),
  mongoAction: action({
    nodeType: "mongoAction",
    path: "mongo-actions",
    idPrefix: "mga",
    config: MongoActionConfig,
    defaults: { operation: "insertOne", triggerOn: "success", isActive: true },
  }),
} as const;
