import { createRoute, z } from "@hono/zod-openapi";
import { type ApprovalLinkOutcome, decideApprovalLink, showApprovalLink } from "@hookflow/services";
import type { Context } from "hono";
import type { AuthEnv } from "../../auth/authenticate.js";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { APPROVAL_LINKS_TAG } from "./approval-route-kit.js";
import {
  alreadyDecidedPage,
  confirmPage,
  decidedPage,
  goneParkPage,
  invalidLinkPage,
  LINK_PAGE_HEADERS,
} from "./link-pages.js";

const TokenParams = z.object({
  token: z
    .string()
    .min(1)
    .openapi({ param: { name: "token", in: "path" }, description: "From the approval mail" }),
});

const html = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});

const PAGES = {
  401: html("Invalid or expired link"),
  404: html("The waiting event no longer exists (deleted)"),
  409: html("Already decided (by this or another link, the API or the timeout)"),
};

const showRoute = createRoute({
  operationId: "showApprovalLink",
  method: "get",
  path: "/api/approvals/{token}",
  tags: [APPROVAL_LINKS_TAG],
  summary: "Show the confirmation page of an emailed approval link",
  description:
    "Public (the signed token is the credential). Shows the waiting event and a button that " +
    "posts the decision. Never decides: mail scanners fetch links.",
  security: [],
  request: { params: TokenParams },
  responses: { 200: html("Confirmation page"), ...PAGES },
});

const decideRoute = createRoute({
  operationId: "decideApprovalLink",
  method: "post",
  path: "/api/approvals/{token}",
  tags: [APPROVAL_LINKS_TAG],
  summary: "Apply the decision of an emailed approval link",
  description:
    "Public (the signed token is the credential). Approves or rejects the waiting event once; " +
    "any later use answers 409. The link expires with the gate's timeout (401).",
  security: [],
  request: { params: TokenParams },
  responses: { 200: html("Decided"), ...PAGES },
});

function answer(c: Context<AuthEnv>, outcome: ApprovalLinkOutcome): Response {
  for (const [name, value] of Object.entries(LINK_PAGE_HEADERS)) c.header(name, value);
  switch (outcome.kind) {
    case "invalid":
      return c.html(invalidLinkPage(outcome.reason), 401);
    case "gone":
      return c.html(goneParkPage(), 404);
    case "alreadyDecided":
      return c.html(alreadyDecidedPage(outcome.park), 409);
    case "confirm":
      return c.html(confirmPage(outcome.park, outcome.decision), 200);
    case "decided":
      return c.html(decidedPage(outcome.park, outcome.decision), 200);
  }
}

/** `GET` shows, `POST` decides: the link in the mail is safe to prefetch. */
export function registerApprovalLinkRoutes(app: ApiApp, services: ApiServices): void {
  app.openapi(showRoute, async (c) =>
    answer(c, await showApprovalLink(services, c.req.valid("param"))),
  );

  app.openapi(decideRoute, async (c) =>
    answer(c, await decideApprovalLink(services, c.req.valid("param"))),
  );
}
