import { UnavailableError } from "@hookflow/domain";
import type { Context, NotFoundHandler } from "hono";
import type { ConsoleAsset, ConsoleAssets } from "./console-assets.js";

/**
 * The console's content security policy: scripts, styles, images, fonts and requests from this
 * origin only; no framing, no plugins, forms and `<base>` to this origin.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Paths the console never answers, so they keep the api's JSON 404 (metrics stay off `PORT`). */
function isReserved(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path === "/metrics";
}

/**
 * A client route of the single-page app: a page a browser navigates to (it asks for HTML), with
 * no file extension in its last segment. API clients asking for anything else keep the JSON 404
 * of an unknown route.
 */
function isClientRoute(c: Context): boolean {
  const path = c.req.path;
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (last.includes(".")) return false;
  return path === "/" || (c.req.header("accept") ?? "").includes("text/html");
}

function send(c: Context, asset: ConsoleAsset): Response {
  const headers: Record<string, string> = {
    "content-type": asset.contentType,
    "cache-control": asset.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    etag: asset.etag,
    vary: "Accept-Encoding",
    "content-security-policy": CONSOLE_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
  };
  if (c.req.header("if-none-match") === asset.etag) return c.body(null, 304, headers);
  const gzip = asset.gzip !== null && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  if (gzip) headers["content-encoding"] = "gzip";
  const body = gzip && asset.gzip ? asset.gzip : asset.body;
  headers["content-length"] = String(body.length);
  if (c.req.method === "HEAD") return c.body(null, 200, headers);
  return c.body(new Uint8Array(body), 200, headers);
}

/**
 * The api's not-found handler with the console behind it: a GET or HEAD that no route answered
 * gets the console's file of that path, or `index.html` for a client route (the app routes in
 * the browser). `/api/*`, `/metrics` and everything else keep the JSON 404 of `notFound`. As a
 * not-found handler it never shadows a route, whenever that route is registered.
 */
export function serveConsole(assets: ConsoleAssets, notFound: NotFoundHandler): NotFoundHandler {
  return (c) => {
    const path = c.req.path;
    const read = c.req.method === "GET" || c.req.method === "HEAD";
    if (!read || assets.state === "off" || isReserved(path)) return notFound(c);
    if (assets.state === "missing") {
      if (!isClientRoute(c)) return notFound(c);
      throw new UnavailableError(
        "The web console is not built: run `pnpm build` (or set DASHBOARD_DIR to a built console)",
      );
    }
    const file = assets.files.get(path === "/" ? "/index.html" : path);
    if (file) return send(c, file);
    return isClientRoute(c) ? send(c, assets.index) : notFound(c);
  };
}
