import { isIP } from "node:net";

/** One trusted network: an address and its prefix length (a single address is /32 or /128). */
export interface ProxyNetwork {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/**
 * Names accepted in `TRUSTED_PROXIES` besides addresses and CIDRs (the presets of Express's
 * `trust proxy`, plus `private` for the networks Docker and Kubernetes hand out).
 */
const PRESETS: Readonly<Record<string, readonly string[]>> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["fc00::/7"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

function parseNetwork(entry: string): ProxyNetwork | null {
  const [address = "", prefixText, ...rest] = entry.split("/");
  if (rest.length > 0) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

export type TrustedProxiesParse =
  | { ok: true; networks: ProxyNetwork[] }
  | { ok: false; invalid: string[] };

/**
 * Parses `TRUSTED_PROXIES`: a comma-separated list of addresses, CIDRs and the presets
 * `loopback`, `linklocal`, `uniquelocal` and `private`. Empty means no proxy is trusted.
 */
export function parseTrustedProxies(text: string): TrustedProxiesParse {
  const networks: ProxyNetwork[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const preset = PRESETS[entry.toLowerCase()];
    const expanded = preset ? preset.map(parseNetwork) : [parseNetwork(entry)];
    for (const network of expanded) {
      if (network) networks.push(network);
      else invalid.push(entry);
    }
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, networks };
}
