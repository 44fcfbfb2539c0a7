import { parseIpv6 } from "./ip-parse.js";
import { checkTargetUrl, isPrivateAddress } from "./private-address.js";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "169.254.0.1",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "0.1.2.3",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.10",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "::1",
    "::",
    "0:0:0:0:0:0:0:1",
    "[::1]",
    "fc00::1",
    "fd12:3456:789a::1",
    "fe80::1",
    "fe80::1%eth0",
    "febf::1",
    "fec0::1",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "::ffff:169.254.169.254",
    "::127.0.0.1",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::1",
    "2002:7f00:1::1",
    "2002:c0a8:101::1",
    "2001:db8::1",
    "2001::1",
    "100::1",
    "3fff::1",
    "not-an-ip",
    "",
    "127.1",
    "1.2.3",
    "256.1.1.1",
    "01.2.3.4",
  ])("treats %j as private", (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.167.1.1",
    "198.20.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
    "2400:cb00::1",
  ])("treats %j as public", (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});

describe("parseIpv6", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["1::", [1, 0, 0, 0, 0, 0, 0, 0]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
  ])("parses %s", (text, groups) => {
    expect(parseIpv6(text)).toEqual(groups);
  });

  it.each(["1:2:3:4:5:6:7", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9", "g::1", "1.2.3.4"])(
    "refuses %s",
    (text) => {
      expect(parseIpv6(text)).toBeNull();
    },
  );
});

describe("checkTargetUrl", () => {
  it.each([
    ["https://example.com/hook", true],
    ["http://8.8.8.8:8080/x", true],
    ["https://[2606:4700:4700::1111]/", true],
    ["http://127.0.0.1:3000/", "private_address"],
    ["http://169.254.169.254/latest/meta-data", "private_address"],
    ["http://[::1]/", "private_address"],
    ["http://[::ffff:127.0.0.1]/", "private_address"],
    ["http://localhost:8080/", "private_address"],
    ["http://api.localhost./", "private_address"],
    // The URL parser normalises odd IPv4 spellings to dotted quads before the check.
    ["http://2130706433/", "private_address"],
    ["http://0x7f.1/", "private_address"],
    ["http://127.1/", "private_address"],
    ["ftp://example.com/", "unsupported_protocol"],
    ["file:///etc/passwd", "unsupported_protocol"],
    ["not a url", "invalid_url"],
  ])("checks %s", (url, expected) => {
    const result = checkTargetUrl(url);
    if (expected === true) {
      expect(result.ok).toBe(true);
      expect(result.ok && result.url.href).toBe(new URL(url).href);
    } else {
      expect(result).toEqual({ ok: false, reason: expected });
    }
  });

  it("lets private literals through when private targets are allowed", () => {
    expect(checkTargetUrl("http://127.0.0.1:3000/", { allowPrivate: true }).ok).toBe(true);
    expect(checkTargetUrl("ftp://127.0.0.1/", { allowPrivate: true })).toEqual({
      ok: false,
      reason: "unsupported_protocol",
    });
  });
});
