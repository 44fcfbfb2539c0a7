import { createRoute, z } from "@hono/zod-openapi";
import { removeOrganizationMember } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const route = createRoute({
  operationId: "removeOrganizationMember",
  method: "delete",
  path: "/api/organizations/{id}/members/{userId}",
  tags: ["Organizations"],
  summary: "Remove a member (owners and admins; never the last owner)",
  request: { params: z.object({ id: z.string(), userId: z.string() }) },
  responses: {
    204: { description: "Member removed" },
    ...identityErrors(401, 403, 404, 409),
  },
});

export function registerRemoveMember(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id, userId } = c.req.valid("param");
    await removeOrganizationMember(services, c.get("actor"), {
      organizationId: id,
      userId,
    });
    return c.body(null, 204);
  });
}
