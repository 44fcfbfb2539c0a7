import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/**
 * Whether a route (not only a catch-all middleware) answers this method and path. Checked before
 * authentication, so an unknown `/api` route is 404 with or without a credential. It reads the
 * match Hono already made for this request: no extra routing work, and routes registered after
 * the app was built count too.
 */
export function hasRoute(c: Context): boolean {
  return matchedRoutes(c).some((route) => route.method !== "ALL");
}
