import { createRoute, z } from "@hono/zod-openapi";
import type { ApiApp } from "../../http/api-app.js";
import { identityContextOf } from "../../identity/context.js";
import { logIn } from "../../identity/log-in.js";
import type { ApiServices } from "../../services.js";
import { clientAddress } from "./client-address.js";
import { identityErrors } from "./identity-error-docs.js";

const LoginBody = z.object({
  email: z.string().min(1).max(320),
  password: z.string().min(1).max(1024),
});

const route = createRoute({
  operationId: "logIn",
  method: "post",
  path: "/api/auth/login",
  tags: ["Auth"],
  summary: "Open a session with email and password",
  request: { body: { content: { "application/json": { schema: LoginBody } }, required: true } },
  responses: {
    200: {
      description: "Session opened",
      content: {
        "application/json": { schema: z.object({ token: z.string(), expiresAt: z.string() }) },
      },
    },
    ...identityErrors(400, 401, 429),
  },
});

export function registerLogin(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { email, password } = c.req.valid("json");
    const session = await logIn(identityContextOf(services), {
      email,
      password,
      address: clientAddress(c),
    });
    return c.json({ token: session.token, expiresAt: session.expiresAt.toISOString() }, 200);
  });
}
