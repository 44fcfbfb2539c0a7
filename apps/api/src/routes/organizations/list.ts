import { createRoute, z } from "@hono/zod-openapi";
import { listOrganizationsOfUser } from "@hookflow/db";
import type { ApiApp } from "../../http/api-app.js";
import { PublicOrganization, presentOrganization } from "../../identity/present.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "../auth/identity-error-docs.js";
import { requireSession } from "./require-session.js";

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
    const actor = c.get("actor");
    requireSession(actor, "Managing organizations");
    const rows = await listOrganizationsOfUser(services.db.db, actor.userId);
    return c.json(
      rows.map((row) => presentOrganization(row, row.role)),
      200,
    );
  });
}
