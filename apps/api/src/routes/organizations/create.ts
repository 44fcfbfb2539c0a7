import { createRoute, z } from "@hono/zod-openapi";
import { createOrganization, PublicOrganization } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const CreateOrganizationBody = z.object({ name: z.string().trim().min(1).max(200) });

const route = createRoute({
  operationId: "createOrganization",
  method: "post",
  path: "/api/organizations",
  tags: ["Organizations"],
  summary: "Create an organization; the caller becomes its owner",
  request: {
    body: { content: { "application/json": { schema: CreateOrganizationBody } }, required: true },
  },
  responses: {
    201: {
      description: "Created",
      content: { "application/json": { schema: PublicOrganization } },
    },
    ...identityErrors(400, 401, 403),
  },
});

export function registerCreateOrganization(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { name } = c.req.valid("json");
    const organization = await createOrganization(services, c.get("actor"), { name });
    return c.json(organization, 201);
  });
}
