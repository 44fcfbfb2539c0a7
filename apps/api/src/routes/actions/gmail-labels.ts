import { createRoute, z } from "@hono/zod-openapi";
import { listGmailLabels } from "@hookflow/services";
import type { ApiApp } from "../../http/api-app.js";
import { BEARER, errorResponsesOf, scopeGuard } from "../../http/route-kit.js";
import type { ApiServices } from "../../services.js";

const GmailLabel = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string().nullable().openapi({ description: "system or user" }),
  })
  .openapi("GmailLabel");

const route = createRoute({
  operationId: "listGmailLabels",
  method: "get",
  path: "/api/gmail-actions/labels/{credentialId}",
  tags: ["Gmail actions"],
  summary: "List the labels of a connected Gmail account",
  description:
    "Calls Gmail's users.labels.list with the google_oauth credential (its token refreshed if " +
    "it expires), for choosing labelIds. 503 when Google refuses or cannot be reached (the " +
    "message gives Google's status, never a token). Needs canvas:read.",
  security: BEARER,
  middleware: [scopeGuard("canvas:read")] as const,
  request: {
    params: z.object({
      credentialId: z
        .string()
        .min(1)
        .openapi({
          param: { name: "credentialId", in: "path" },
          example: "cred_01J9Z3K8Q4T6V2X7Y5W0A1B2C3",
        }),
    }),
  },
  responses: {
    200: {
      description: "The account's labels",
      content: { "application/json": { schema: z.array(GmailLabel) } },
    },
    ...errorResponsesOf(
      {
        400: "The credential is not a google_oauth credential",
        401: "Missing, unknown or expired credential",
        403: "Credential of another owner, or a key without the scope",
        404: "No credential with this id",
        503: "Google refused the call or could not be reached",
      },
      [400, 401, 403, 404, 503],
    ),
  },
});

export function registerGmailLabels(app: ApiApp, services: ApiServices): void {
  app.openapi(route, async (c) => {
    const labels = await listGmailLabels(services, c.get("actor"), c.req.valid("param"));
    return c.json(labels, 200);
  });
}
