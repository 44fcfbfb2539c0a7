import { BlockList, isIP } from "node:net";

/** A trusted network as the config parses it (`TRUSTED_PROXIES`). */
export interface TrustedNetwork {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/**
 * The client address of a request: the TCP peer, unless the peer is a trusted proxy, in which
 * case `X-Forwarded-For` is walked from the right, skipping trusted hops, and the first
 * untrusted address is the client (Express's `trust proxy` rule). Null without a peer.
 */
export type ClientAddressResolver = (
  peer: string | null | undefined,
  forwardedFor: string | null | undefined,
) => string | null;

/** `::ffff:192.0.2.1` -> `192.0.2.1`, so one client has one spelling (keys, stored events). */
function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address.toLowerCase();
}

/** A forwarded hop as proxies write it: bare, `[v6]:port` or `v4:port`; null if not an IP. */
function hopAddress(hop: string): string | null {
  let text = hop.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(":"));
  return isIP(text) === 0 ? null : normalize(text);
}

export function createClientAddressResolver(
  networks: readonly TrustedNetwork[],
): ClientAddressResolver {
  if (networks.length === 0) {
    // Nothing is trusted: the header is never read.
    return (peer) => (peer ? normalize(peer) : null);
  }
  const trusted = new BlockList();
  for (const network of networks)
    trusted.addSubnet(network.address, network.prefix, network.family);
  const isTrusted = (address: string) =>
    trusted.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
  return (peer, forwardedFor) => {
    if (!peer) return null;
    let client = normalize(peer);
    const hops = forwardedFor ? forwardedFor.split(",") : [];
    while (isTrusted(client)) {
      const hop = hops.pop();
      if (hop === undefined) break;
      const address = hopAddress(hop);
      // A malformed hop ends the walk: the last address a trusted proxy vouched for stands.
      if (address === null) break;
      client = address;
    }
    return client;
  };
}
