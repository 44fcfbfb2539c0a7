import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context } from "hono";

/**
 * The peer address of the TCP connection. Forwarded headers are not trusted: a client could
 * write any address there and escape the per-address login limit. Requests that do not come
 * from a socket (in-process `app.request`) share one bucket.
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}
