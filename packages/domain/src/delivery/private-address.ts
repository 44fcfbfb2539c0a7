import { parseIpv4, parseIpv6 } from "./ip-parse.js";

/** IPv4 ranges no outbound delivery may reach: [network, prefix length]. */
const IPV4_BLOCKED: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // RFC 1918
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // RFC 1918
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // RFC 1918
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // TEST-NET-2
  ["203.0.113.0", 24], // TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast
];

const IPV4_RANGES = IPV4_BLOCKED.map(([net, bits]) => {
  const size = 2 ** (32 - bits);
  const start = parseIpv4(net) ?? 0;
  return { start, end: start + size - 1 };
});

function isPrivateIpv4(value: number): boolean {
  return IPV4_RANGES.some((range) => value >= range.start && value <= range.end);
}

function embeddedIpv4(high: number, low: number): number {
  return high * 65536 + low;
}

function isPrivateIpv6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0xffff) return isPrivateIpv4(embeddedIpv4(g6, g7)); // ::ffff:a.b.c.d
  if (firstFiveZero && g5 === 0) return true; // ::, ::1, deprecated IPv4-compatible ::a.b.c.d
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return true; // SIIT
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return isPrivateIpv4(embeddedIpv4(g6, g7)); // NAT64 well-known prefix
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // local-use NAT64
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return true; // discard-only 100::/64
  if (g0 === 0x2001 && g1 < 0x200) return true; // IETF assignments incl. Teredo 2001::/23
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if (g0 === 0x2002) return isPrivateIpv4(embeddedIpv4(g1, g2)); // 6to4 embeds an IPv4
  if (g0 === 0x3fff && g1 < 0x1000) return true; // documentation 3fff::/20
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return true; // deprecated site-local fec0::/10
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

/**
 * True when `ip` is loopback, private, link-local, CGNAT, unique-local, multicast, reserved or
 * documentation space, for IPv4 and IPv6 (IPv4-mapped, NAT64 and 6to4 forms are unwrapped).
 * Text that is not an IP address also answers true: the guard fails closed.
 */
export function isPrivateAddress(ip: string): boolean {
  const v4 = parseIpv4(ip.trim());
  if (v4 !== null) return isPrivateIpv4(v4);
  const v6 = parseIpv6(ip.trim());
  if (v6 !== null) return isPrivateIpv6(v6);
  return true;
}

export type TargetUrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: "invalid_url" | "unsupported_protocol" | "private_address" };

/**
 * Static check of an outbound URL: http(s) only; a literal IP host (or `localhost`) must not be
 * private unless `allowPrivate`. Hostnames are resolved and checked by the caller at connect time.
 */
export function checkTargetUrl(
  url: string,
  options: { allowPrivate?: boolean } = {},
): TargetUrlCheck {
  if (!URL.canParse(url)) return { ok: false, reason: "invalid_url" };
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { ok: false, reason: "unsupported_protocol" };
  }
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "") return { ok: false, reason: "invalid_url" };
  if (options.allowPrivate) return { ok: true, url: parsed };
  const isLiteral = parseIpv4(host) !== null || host.startsWith("[");
  const isLocalName = host === "localhost" || host.endsWith(".localhost");
  if (isLocalName || (isLiteral && isPrivateAddress(host))) {
    return { ok: false, reason: "private_address" };
  }
  return { ok: true, url: parsed };
}
