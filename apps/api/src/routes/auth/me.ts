import { createRoute, z } from "@hono/zod-openapi";
import { findUserById, listOrganizationsOfUser } from "@hookflow/db";
import { UnauthorizedError } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import { PublicUser, presentUser } from "../../identity/present.js";
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
    const actor = c.get("actor");
    const db = services.db.db;
    const [user, organizations] = await Promise.all([
      findUserById(db, actor.userId),
      listOrganizationsOfUser(db, actor.userId),
    ]);
    if (!user) throw new UnauthorizedError("Account no longer exists");
    return c.json(
      {
        user: presentUser(user),
        memberships: organizations.map((o) => ({
          organizationId: o.id,
          name: o.name,
          role: o.role,
        })),
      },
      200,
    );
  });
}
