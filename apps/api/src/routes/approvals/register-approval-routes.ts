import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerDecideApproval } from "./decide.js";
import { registerApprovalLinkRoutes } from "./link-routes.js";
import { registerApprovalOutbox } from "./outbox.js";
import { registerPendingApprovals } from "./pending.js";

/**
 * Approval gates' control plane (docs/decisions.md, "The api's edge" and "Node families and canvas"): the waiting list, approve and
 * reject for API users, the outbox of approval mails, and the public pages behind the signed
 * single-use links those mails carry.
 */
export function registerApprovalRoutes(app: ApiApp, services: ApiServices): void {
  registerPendingApprovals(app, services);
  registerDecideApproval(app, services, "approve");
  registerDecideApproval(app, services, "reject");
  registerApprovalOutbox(app, services);
  registerApprovalLinkRoutes(app, services);
}
