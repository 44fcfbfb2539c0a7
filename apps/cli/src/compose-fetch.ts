import type { Http2Bindings, HttpBindings } from "@hono/node-server";

/** What `serve` hands each request: the web Request plus the node bindings (for client IPs). */
export type FetchHandler = (
  request: Request,
  env?: HttpBindings | Http2Bindings,
) => Response | Promise<Response>;

export type RouteTarget = "ingress" | "stream" | "api";

/** An event's steps, or a webhook's events (`/api/webhooks/:id/stream`). */
const STREAM_PATH = /^\/api\/(?:events|webhooks)\/[^/]+\/stream\/?$/;

/**
 * Which app answers a path when every role shares one port. The same three path families are
 * routed by the reverse proxy of the compose file and by the Kubernetes Ingress.
 */
export function routeOf(pathname: string): RouteTarget {
  if (pathname === "/api/in" || pathname.startsWith("/api/in/")) return "ingress";
  if (STREAM_PATH.test(pathname)) return "stream";
  return "api";
}

/**
 * One fetch for one server: `/api/in/*` to ingress, `/api/events/:id/stream` and
 * `/api/webhooks/:id/stream` to stream, else api.
 */
export function composeFetch(apps: Record<RouteTarget, FetchHandler>): FetchHandler {
  return (request, env) => {
    const { pathname } = new URL(request.url);
    return apps[routeOf(pathname)](request, env);
  };
}
