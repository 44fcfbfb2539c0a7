import { createRoute, z } from "@hono/zod-openapi";
import { getMe, PublicUser } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "./identity-error-docs.js";

const Membership = z.object({
  organizationId: z.string(),
  name: z.string(),
  role: z.enum(["owner", "admin", "member"]),
});

const route = createRoute({
  operationId: "getMe",
  method: "get",
  path: "/api/auth/me",
  tags: ["Auth"],
  summary: "The authenticated user and the organizations they belong to",
  responses: {
    200: {
      description: "The user",
      content: {
        "application/json": {
          schema: z.object({ user: PublicUser, memberships: z.array(Membership) }),
        },
      },
    },
    ...identityErrors(401),
  },
});

export function registerMe(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    return c.json(await getMe(services, c.get("actor")), 200);
  });
}
