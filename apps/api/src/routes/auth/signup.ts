import { createRoute, z } from "@hono/zod-openapi";
import { ForbiddenError } from "@hookflow/domain";
import type { ApiApp } from "../../http/api-app.js";
import { identityContextOf } from "../../identity/context.js";
import { createSession } from "../../identity/create-session.js";
import { createUserAccount } from "../../identity/create-user-account.js";
import { PublicUser } from "../../identity/present.js";
import { DisplayName, Email, Password } from "../../identity/schemas.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "./identity-error-docs.js";

const SignupBody = z.object({ email: Email, password: Password, name: DisplayName });

const route = createRoute({
  operationId: "signUp",
  method: "post",
  path: "/api/auth/signup",
  tags: ["Auth"],
  summary: "Create an account and open a session",
  request: { body: { content: { "application/json": { schema: SignupBody } }, required: true } },
  responses: {
    201: {
      description: "Account created",
      content: {
        "application/json": { schema: z.object({ user: PublicUser, token: z.string() }) },
      },
    },
    ...identityErrors(400, 403, 409),
  },
});

export function registerSignup(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    if (!services.config.allowSignup) throw new ForbiddenError("Signup is disabled");
    const ctx = identityContextOf(services);
    const user = await createUserAccount(ctx, c.req.valid("json"));
    const session = await createSession(ctx, user.id);
    return c.json({ user, token: session.token }, 201);
  });
}
