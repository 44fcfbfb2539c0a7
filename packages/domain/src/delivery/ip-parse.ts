/** Strict textual IP parsing for the private-address guard. No DNS, no I/O. */

const IPV4_PART = /^(0|[1-9]\d{0,2})$/;

/** Dotted-quad IPv4 to an unsigned 32-bit number; null unless exactly four decimal parts 0..255. */
export function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

const HEX_GROUP = /^[0-9a-f]{1,4}$/;

function parseGroups(text: string): number[] | null {
  if (text === "") return [];
  const out: number[] = [];
  const parts = text.split(":");
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIpv4(part);
      if (v4 === null) return null;
      out.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (HEX_GROUP.test(part)) {
      out.push(Number.parseInt(part, 16));
    } else {
      return null;
    }
  }
  return out;
}

/**
 * IPv6 text (brackets and a `%zone` suffix tolerated) to its eight 16-bit groups; null when the
 * text is not a valid IPv6 address.
 */
export function parseIpv6(input: string): number[] | null {
  let text = input.toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(":")) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const groups = parseGroups(text);
    return groups && groups.length === 8 ? groups : null;
  }
  const head = parseGroups(halves[0] ?? "");
  const tail = parseGroups(halves[1] ?? "");
  if (!head || !tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
