import { createRoute, z } from "@hono/zod-openapi";
import { type ApprovalParkView, decideApproval, findApprovalPark } from "@hookflow/db";
import { type ApprovalLinkClaims, verifyApprovalLinkToken } from "@hookflow/domain";
import type { Context } from "hono";
import type { AuthEnv } from "../../auth/authenticate.js";
import type { ApiApp } from "../../http/api-app.js";
import type { ApiServices } from "../../services.js";
import { APPROVAL_LINKS_TAG, PREVIEW_CHARS, resumeDecided } from "./approval-route-kit.js";
import {
  alreadyDecidedPage,
  confirmPage,
  decidedPage,
  goneParkPage,
  invalidLinkPage,
  LINK_PAGE_HEADERS,
} from "./link-pages.js";

/** `decided_by` of decisions taken through an emailed link. */
const EMAIL_LINK_DECIDER = "email-link";

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

type Verified = { ok: true; claims: ApprovalLinkClaims } | { ok: false; response: Response };

function answer(c: Context<AuthEnv>, body: string, status: 200 | 401 | 404 | 409): Response {
  for (const [name, value] of Object.entries(LINK_PAGE_HEADERS)) c.header(name, value);
  return c.html(body, status);
}

function verify(c: Context<AuthEnv>, services: ApiServices, token: string): Verified {
  const result = verifyApprovalLinkToken(services.config.secret, token, services.now().getTime());
  if (result.ok) return result;
  return { ok: false, response: answer(c, invalidLinkPage(result.reason), 401) };
}

function loadPark(services: ApiServices, parkId: string): Promise<ApprovalParkView | undefined> {
  return findApprovalPark(services.db.db, parkId, PREVIEW_CHARS);
}

/** `GET` shows, `POST` decides: the link in the mail is safe to prefetch. */
export function registerApprovalLinkRoutes(app: ApiApp, services: ApiServices): void {
  app.openapi(showRoute, async (c) => {
    const verified = verify(c, services, c.req.valid("param").token);
    if (!verified.ok) return verified.response;
    const park = await loadPark(services, verified.claims.parkId);
    if (!park) return answer(c, goneParkPage(), 404);
    if (park.status !== "waiting") return answer(c, alreadyDecidedPage(park), 409);
    return answer(c, confirmPage(park, verified.claims.decision), 200);
  });

  app.openapi(decideRoute, async (c) => {
    const verified = verify(c, services, c.req.valid("param").token);
    if (!verified.ok) return verified.response;
    const { parkId, decision } = verified.claims;
    const decided = await decideApproval(services.db.db, {
      target: { parkId },
      decision,
      decidedBy: EMAIL_LINK_DECIDER,
      now: services.now(),
    });
    const park = await loadPark(services, parkId);
    if (!park) return answer(c, goneParkPage(), 404);
    if (decided.length === 0) return answer(c, alreadyDecidedPage(park), 409);
    await resumeDecided(services, decided);
    return answer(c, decidedPage(park, decision), 200);
  });
}
