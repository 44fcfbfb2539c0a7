import type { HookflowConfig } from "@hookflow/config";
import type { ServiceContext } from "../context.js";

/**
 * Webhook verbs also answer with the ingress URL (PUBLIC_BASE_URL) and sign stream tokens
 * (HOOKFLOW_SECRET).
 */
export interface WebhooksContext extends ServiceContext {
  config: Pick<HookflowConfig, "publicBaseUrl" | "secret">;
}
