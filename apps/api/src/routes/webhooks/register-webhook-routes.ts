import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerCreateWebhook } from "./create.js";
import { registerDeleteWebhook } from "./delete.js";
import { registerGetWebhook } from "./get.js";
import { registerListWebhooks } from "./list.js";
import { registerRotateWebhookSigningSecret } from "./rotate-signing-secret.js";
import { registerRotateWebhookToken } from "./rotate-token.js";
import { registerWebhookStreamToken } from "./stream-token.js";
import { registerToggleWebhookActive } from "./toggle-active.js";
import { registerUpdateWebhook } from "./update.js";

/** The webhooks control plane (docs/decisions.md, "Webhooks" and "The api's edge"). */
export function registerWebhookRoutes(app: ApiApp, services: ApiServices): void {
  registerListWebhooks(app, services);
  registerCreateWebhook(app, services);
  registerGetWebhook(app, services);
  registerUpdateWebhook(app, services);
  registerDeleteWebhook(app, services);
  registerToggleWebhookActive(app, services);
  registerRotateWebhookToken(app, services);
  registerRotateWebhookSigningSecret(app, services);
  registerWebhookStreamToken(app, services);
}
