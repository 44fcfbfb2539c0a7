/** Routes of the api that need no credential (docs/decisions.md, "The api's edge"). */
const PUBLIC = new Set([
  "/api/health",
  "/api/openapi.json",
  "/api/docs",
  "/api/auth/signup",
  "/api/auth/login",
]);

/** The reference UI's scripts and stylesheet (`/api/docs/assets/<file>`). */
const DOCS_ASSET = /^\/api\/docs\/assets\/[^/]+$/;

/** Emailed approval links: `/api/approvals/<token>`, where the signed token is the credential. */
const APPROVAL_LINK = /^\/api\/approvals\/[^/]+\/?$/;

export function isPublicPath(path: string): boolean {
  return (
    PUBLIC.has(path.replace(/\/+$/, "") || "/") || APPROVAL_LINK.test(path) || DOCS_ASSET.test(path)
  );
}
