import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { registerAddMember } from "./add-member.js";
import { registerCreateOrganization } from "./create.js";
import { registerListOrganizations } from "./list.js";
import { registerRemoveMember } from "./remove-member.js";

export function registerOrganizations(app: ApiApp, services: ApiServices): void {
  registerCreateOrganization(app, services);
  registerListOrganizations(app, services);
  registerAddMember(app, services);
  registerRemoveMember(app, services);
}
