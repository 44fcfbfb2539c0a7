import { createRoute, z } from "@hono/zod-openapi";
import { addOrganizationMember, Email, Role } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const AddMemberBody = z.object({ email: Email, role: Role });

const Member = z.object({
  organizationId: z.string(),
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: Role,
  createdAt: z.string(),
});

const route = createRoute({
  operationId: "addOrganizationMember",
  method: "post",
  path: "/api/organizations/{id}/members",
  tags: ["Organizations"],
  summary: "Add an existing user to the organization (owners and admins)",
  request: {
    params: z.object({ id: z.string() }),
    body: { content: { "application/json": { schema: AddMemberBody } }, required: true },
  },
  responses: {
    201: { description: "Member added", content: { "application/json": { schema: Member } } },
    ...identityErrors(400, 401, 403, 404, 409),
  },
});

export function registerAddMember(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { email, role } = c.req.valid("json");
    const member = await addOrganizationMember(services, c.get("actor"), {
      organizationId: id,
      email,
      role,
    });
    return c.json(member, 201);
  });
}
