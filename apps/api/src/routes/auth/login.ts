import { createRoute, z } from "@hono/zod-openapi";
import { logIn } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { errorAnswer } from "../../http/route-kit.js";
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
  description:
    "Attempts are counted before the password is checked. One client address gets 5 tries per " +
    "account, then waits 1 s, 2 s, 4 s ... (at most 15 min) between tries; 100 failed tries " +
    "from one address in 15 min stop that address for the rest of the window. An account is " +
    "never locked: a try from another address is checked. The client address is the TCP peer, " +
    "or the X-Forwarded-For client when the peer is in TRUSTED_PROXIES.",
  request: { body: { content: { "application/json": { schema: LoginBody } }, required: true } },
  responses: {
    200: {
      description: "Session opened",
      content: {
        "application/json": { schema: z.object({ token: z.string(), expiresAt: z.string() }) },
      },
    },
    ...identityErrors(400),
    401: errorAnswer("Unknown email or wrong password (one message for both)"),
    429: {
      ...errorAnswer("Too many failed attempts from this address; wait Retry-After seconds"),
      headers: { "Retry-After": { schema: { type: "integer" } } },
    },
    503: errorAnswer("Redis unreachable: attempts cannot be counted, so none is checked"),
  },
});

export function registerLogin(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const { email, password } = c.req.valid("json");
    const session = await logIn(services, {
      email,
      password,
      address: clientAddress(c, services.clientAddress),
    });
    return c.json({ token: session.token, expiresAt: session.expiresAt.toISOString() }, 200);
  });
}
