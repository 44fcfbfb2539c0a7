import { getConnInfo } from "@hono/node-server/conninfo";
import type { ClientAddressResolver } from "@hookflow/domain";
import type { Context } from "hono";

/**
 * The client's address for the login and signup limits: the TCP peer, or the address a trusted
 * proxy (TRUSTED_PROXIES) forwarded. Requests that do not come from a socket (in-process
 * `app.request`) share one bucket.
 */
export function clientAddress(c: Context, resolve: ClientAddressResolver): string {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    peer = undefined;
  }
  return resolve(peer, c.req.header("x-forwarded-for")) ?? "unknown";
}
