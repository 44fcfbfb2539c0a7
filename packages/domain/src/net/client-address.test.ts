import { createClientAddressResolver, type TrustedNetwork } from "./client-address.js";

const LOOPBACK: TrustedNetwork[] = [
  { address: "127.0.0.0", prefix: 8, family: "ipv4" },
  { address: "::1", prefix: 128, family: "ipv6" },
];
const PRIVATE_10: TrustedNetwork = { address: "10.0.0.0", prefix: 8, family: "ipv4" };

describe("createClientAddressResolver", () => {
  it("trusting nothing, answers the peer and never reads the header", () => {
    const resolve = createClientAddressResolver([]);
    expect(resolve("127.0.0.1", "203.0.113.9")).toBe("127.0.0.1");
    expect(resolve("::ffff:192.0.2.1", null)).toBe("192.0.2.1");
    expect(resolve(undefined, "203.0.113.9")).toBeNull();
  });

  it.each([
    ["an untrusted peer's header", "198.51.100.1", "203.0.113.9", "198.51.100.1"],
    ["the client behind one trusted proxy", "127.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["the rightmost untrusted hop", "127.0.0.1", "6.6.6.6, 203.0.113.9, 10.0.0.2", "203.0.113.9"],
    ["the leftmost hop when every hop is trusted", "127.0.0.1", "10.0.0.3, 10.0.0.2", "10.0.0.3"],
    ["the proxy when it forwards nothing", "127.0.0.1", undefined, "127.0.0.1"],
    ["a mapped IPv4 peer as a trusted proxy", "::ffff:127.0.0.1", "203.0.113.9", "203.0.113.9"],
    ["an IPv6 client", "::1", "2001:DB8::1", "2001:db8::1"],
    ["a hop with a port", "127.0.0.1", "203.0.113.9:5123", "203.0.113.9"],
    ["a bracketed IPv6 hop with a port", "127.0.0.1", "[2001:db8::2]:443", "2001:db8::2"],
    ["the last trusted hop before a malformed one", "127.0.0.1", "junk, 10.0.0.5", "10.0.0.5"],
  ])("answers %s", (_label, peer, header, expected) => {
    const resolve = createClientAddressResolver([...LOOPBACK, PRIVATE_10]);
    expect(resolve(peer, header)).toBe(expected);
  });
});
