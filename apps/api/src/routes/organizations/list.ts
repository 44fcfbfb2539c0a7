import { createRoute, z } from "@hono/zod-openapi";
import { listOrganizations, PublicOrganization } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";

const route = createRoute({
  operationId: "listOrganizations",
  method: "get",
  path: "/api/organizations",
  tags: ["Organizations"],
  summary: "The caller's organizations, with the caller's role in each",
  responses: {
    200: {
      description: "Organizations",
      content: { "application/json": { schema: z.array(PublicOrganization) } },
    },
    ...identityErrors(401, 403),
  },
});

export function registerListOrganizations(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    return c.json(await listOrganizations(services, c.get("actor")), 200);
  });
}
