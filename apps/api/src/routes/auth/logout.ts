import { createRoute } from "@hono/zod-openapi";
import { endSession } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { identityErrors } from "./identity-error-docs.js";

const route = createRoute({
  operationId: "logOut",
  method: "post",
  path: "/api/auth/logout",
  tags: ["Auth"],
  summary: "End the current session",
  responses: {
    204: { description: "Session ended" },
    ...identityErrors(401, 403),
  },
});

export function registerLogout(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const token = /^Bearer\s+(\S+)/i.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    await endSession(services, c.get("actor"), { token });
    return c.body(null, 204);
  });
}
