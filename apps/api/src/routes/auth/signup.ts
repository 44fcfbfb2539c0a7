import { createRoute, z } from "@hono/zod-openapi";
import {
  DisplayName,
  Email,
  Password,
  PublicUser,
  SIGNUPS_PER_ADDRESS_PER_HOUR,
  signUp,
} from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { errorAnswer } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";
import { clientAddress } from "./client-address.js";
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
    ...identityErrors(400),
    403: errorAnswer("Signup is disabled (ALLOW_SIGNUP=false)"),
    409: errorAnswer("An account with this email already exists"),
    429: {
      ...errorAnswer(
        `More than ${SIGNUPS_PER_ADDRESS_PER_HOUR} signups from this client address in an hour`,
      ),
      headers: { "Retry-After": { schema: { type: "integer" } } },
    },
  },
});

export function registerSignup(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const address = clientAddress(c, services.clientAddress);
    return c.json(await signUp(services, { ...c.req.valid("json"), address }), 201);
  });
}
